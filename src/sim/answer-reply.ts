import type { ServiceKind, SimDirective, SimFault } from '../types.js';
import { answer, type ChatMessage, fitToTokens, tokenCount } from './answer.js';
import { type RouterModel, routerCost } from './catalog.js';
import { completionBody } from './completion-body.js';
import type { SimReply } from './reply.js';
import type { SimState } from './state.js';

/** The concrete model that answers a request. */
export interface ResolvedModel {
  id: string;
  provider: string;
  /** Another provider than the model's default: the seed of its own wording; null otherwise. */
  variant: string | null;
  /** Router catalog entry (prices); null on the direct service. */
  priced: RouterModel | null;
}

/**
 * The 200 reply of a request that got past auth, budget and error faults: the model's
 * deterministic answer, shaped by the directive (reply, finish_reason) and by the
 * non-error faults (length, empty_content, empty_choices, body_error, bad_response).
 */
export function answerReply(
  kind: ServiceKind,
  model: ResolvedModel,
  messages: ChatMessage[],
  maxTokens: number | null,
  d: SimDirective,
  active: SimFault | null,
  key: string,
  state: SimState,
): SimReply {
  const base = answer(model.id, messages, maxTokens, model.variant);
  let { content, completionTokens } = base;
  let finish: string | null = base.finishReason;
  if (d.reply !== undefined) {
    const fitted = fitToTokens(d.reply, maxTokens);
    [content, finish, completionTokens] = [fitted.content, fitted.finishReason, tokenCount(fitted.content)];
  }
  if (active === 'length') {
    content = content.slice(0, Math.ceil(content.length / 2));
    [finish, completionTokens] = ['length', tokenCount(content)];
  }
  if (d.finish_reason !== undefined) finish = d.finish_reason;
  if (active === 'empty_content') [content, finish, completionTokens] = ['', null, 0];
  // OpenAI's refusal shape: no content, the refusal in `message.refusal`, a normal stop.
  const refusal = active === 'refusal' ? REFUSAL : null;
  if (refusal !== null) [content, finish, completionTokens] = ['', 'stop', tokenCount(REFUSAL)];
  if (active === 'content_filter') [content, finish, completionTokens] = ['', 'content_filter', 0];

  const created = Math.floor(Date.now() / 1000);
  const id = kind === 'router' ? `gen-${created}-${state.nextId()}` : `chatcmpl-${state.nextId()}`;
  const cost = model.priced ? routerCost(model.priced, base.promptTokens, completionTokens) : 0;
  const shape =
    active === 'empty_choices' ? 'empty_choices' : active === 'body_error' ? 'body_error' : 'normal';
  // Another provider (or a backend change) serves the same model: routing chose it.
  const provider = model.provider;
  const fingerprint = d.fingerprint ?? fingerprintOf(model.id, provider);
  const parts = {
    id,
    created,
    model: model.id,
    provider,
    fingerprint,
    content,
    refusal,
    finishReason: finish,
  };
  const body = JSON.stringify(
    completionBody(kind, { ...parts, promptTokens: base.promptTokens, completionTokens, cost }, shape),
  );
  const headers: Record<string, string> = kind === 'router' ? { 'x-generation-id': id } : {};
  if (active === 'bad_response') {
    return { action: 'respond', status: 200, headers, body: body.slice(0, Math.floor(body.length / 2)) };
  }
  // Only a usable answer spends credit: empty and broken replies are free, as with zero-completion insurance.
  if (shape === 'normal' && active !== 'empty_content' && active !== 'content_filter')
    state.countSuccess(key);
  return { action: 'respond', status: 200, headers, body };
}

/** What the simulated model says when it refuses. */
const REFUSAL = "I'm sorry, but I can't help with that request.";

/** A stable `system_fingerprint` per model and provider, as the services report one per backend configuration. */
function fingerprintOf(model: string, provider: string): string {
  let h = 2166136261;
  for (const ch of `${model}|${provider}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return `fp_${(h >>> 0).toString(16).padStart(8, '0')}`;
}
