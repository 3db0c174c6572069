import type { SimFlavour } from '../adapters/index.js';
import type { SimDirective, SimFault } from '../suite/types.js';
import { answer, type ChatMessage, fitToTokens, lastUserText, tokenCount } from './answer.js';
import {
  MAX_COMPLETION_TOKENS,
  type RouterModel,
  routerCost,
  type SimProvider,
  type ToolParameter,
} from './catalog.js';
import { type ReasoningDetail, reasoningOf } from './agent.js';
import { hash } from './words.js';
import { completionBody, reasoningText } from './completion-body.js';
import type { SimReply } from './reply.js';
import type { SimState } from './state.js';
import type { ToolTurn, WireToolCall } from './tool-turn.js';

/** The concrete model that answers a request. */
export interface ResolvedModel {
  id: string;
  provider: string;
  /** Another provider than the model's default: the seed of its own wording; null otherwise. */
  variant: string | null;
  /** Router catalog entry (prices); null on the direct service. */
  priced: RouterModel | null;
  /** The serving upstream's standing share of schema-missing tool arguments. */
  schemaMismatchRate: number;
  /** Parameters the serving upstream ignores. */
  unsupported: readonly ToolParameter[];
  /** Whether the model, as served, indents JSON. */
  wordy: boolean;
  /** A reasoning model: it thinks before it answers; on the router its answers carry the thinking (RouterModel). */
  reasoning: boolean;
  /** The serving upstream's standing tool-loop faults, each with the share of requests it hits. */
  agentFaults: SimProvider['agentFaults'];
  /** The serving upstream's standing stream faults, each with the share of requests it hits. */
  streamFaults: SimProvider['streamFaults'];
  /** How fast the serving upstream generates the model's output, in tokens per second. */
  tokensPerS: number;
}

/** A 200 answer before it is sent, whole (JSON) or as a stream. */
export interface Answer {
  headers: Record<string, string>;
  body: Record<string, unknown>;
  /** `bad_response`: the body is sent broken (cut in half). */
  broken: boolean;
  /** A usable answer, which spends credit (empty and broken ones are free, as with zero-completion insurance). */
  usable: boolean;
}

/**
 * The 200 answer of a request that got past auth, budget and error faults: the model's
 * deterministic answer (or its tool calls, or content in the asked `response_format`: the
 * `turn`), shaped by the directive (reply, finish_reason) and by the non-error faults
 * (length, empty_content, empty_choices, body_error, bad_response). A `reply` directive or a
 * fault of the answer's own stands in for tool calls: the model answered in text.
 */
export function answerReply(
  kind: SimFlavour,
  model: ResolvedModel,
  messages: ChatMessage[],
  maxTokens: number | null,
  d: SimDirective,
  active: SimFault | null,
  state: SimState,
  turn: ToolTurn = null,
): Answer {
  // A reasoning model thinks first, within the same cap: what is left of it is the answer's.
  // The router returns the thinking (about the calls it makes, or else the question).
  const calls = turn?.kind === 'calls' && d.reply === undefined && active === null ? turn.calls : null;
  const thought =
    model.reasoning && kind === 'router'
      ? calls
        ? reasoningOf(
            model.id,
            calls.map((c) => c.function),
          )
        : questionThought(model.id, messages, false)
      : null;
  const budget = maxTokens ?? MAX_COMPLETION_TOKENS;
  const thinking = thinkingTokens(model, messages, budget, active, thought);
  const exhausted = thinking !== null && thinking >= budget;
  const room = thinking === null || exhausted || maxTokens === null ? maxTokens : maxTokens - thinking;
  const base = answer(model.id, messages, room, model.variant, turn?.kind === 'unread');
  let { content, completionTokens } = base;
  let finish: string | null = base.finishReason;
  let toolCalls: WireToolCall[] | undefined;
  // A call cut at the cap: the reasoning is about the calls made, not those meant.
  let callsCut = false;
  if (turn?.kind === 'content') {
    const fitted = fitToTokens(turn.content, room);
    [content, finish, completionTokens] = [fitted.content, fitted.finishReason, tokenCount(fitted.content)];
  }
  if (calls !== null) {
    const fitted = fitCalls(calls, room);
    [toolCalls, content, finish, completionTokens] = [fitted.calls, '', fitted.finishReason, fitted.tokens];
    callsCut = fitted.finishReason === 'length';
  }
  if (d.reply !== undefined) {
    const fitted = fitToTokens(d.reply, room);
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
  // Thinking used the whole cap: cut off (length) before a word of the answer.
  if (exhausted) [content, finish, completionTokens, toolCalls] = ['', 'length', 0, undefined];
  if (d.finish_reason !== undefined && exhausted) finish = d.finish_reason;
  // On the router, a reasoning model's answer carries its thinking, and a model cut off while
  // thinking the thinking it did (OpenAI's hide theirs): a turn of calls the reasoning about
  // the calls it made (those that fitted), a text answer its thoughts on the question.
  let reasoning: ReasoningDetail[] | undefined;
  let reasoningTokens = thinking;
  if (exhausted) {
    reasoningTokens = budget;
    if (kind === 'router') reasoning = questionThought(model.id, messages, true);
  } else if (thought !== null) {
    reasoning = thought;
    if (toolCalls && callsCut) {
      reasoning = reasoningOf(
        model.id,
        toolCalls.map((c) => c.function),
      );
      reasoningTokens = tokenCount(reasoningText(reasoning));
    }
  }
  if (reasoningTokens !== null) completionTokens += reasoningTokens;

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
    ...(toolCalls ? { toolCalls } : {}),
    ...(reasoning ? { reasoning } : {}),
    reasoningTokens,
  };
  const body = completionBody(
    kind,
    { ...parts, promptTokens: base.promptTokens, completionTokens, cost },
    shape,
  );
  const headers: Record<string, string> = kind === 'router' ? { 'x-generation-id': id } : {};
  const usable =
    active !== 'bad_response' &&
    shape === 'normal' &&
    active !== 'empty_content' &&
    active !== 'content_filter';
  return { headers, body, broken: active === 'bad_response', usable };
}

/**
 * The tokens a model thinks before it answers, counted in its completion tokens (and in
 * `completion_tokens_details.reasoning_tokens`) and capped with them; null for a model that
 * does not reason. The router returns a reasoning model's thinking (`thought`): it thought the
 * tokens of that text. A direct reasoning model hides its thinking, as OpenAI's do: it thinks
 * 64, 128, 192 or 256 tokens, by the conversation. Under `reasoning_exhausted` any model
 * thinks through its whole cap (`budget`: the request's, else the model's).
 */
function thinkingTokens(
  model: ResolvedModel,
  messages: readonly ChatMessage[],
  budget: number,
  active: SimFault | null,
  thought: readonly ReasoningDetail[] | null,
): number | null {
  if (active === 'reasoning_exhausted') return budget;
  if (!model.reasoning) return null;
  if (thought !== null) return tokenCount(reasoningText(thought));
  return 64 * (1 + (hash(`${model.id}\n${JSON.stringify(messages.map((m) => m.content))}`) % 4));
}

/**
 * A reasoning model's thoughts on the last user message, as one reasoning_details entry:
 * whole before a text answer, or `cut` off where the cap stopped it.
 */
function questionThought(model: string, messages: readonly ChatMessage[], cut: boolean): ReasoningDetail[] {
  const asked = lastUserText(messages).trim();
  const text = `The user asks: "${asked.slice(0, 200)}". Before answering I should consider every reading of it, then check each step of the answer against what was asked, then${cut ? '' : ' answer.'}`;
  const signature = hash(`${model}\n${text}`).toString(16).padStart(8, '0');
  return [{ type: 'reasoning.text', text, signature, format: 'unknown', index: 0 }];
}

/** An answer as one JSON body; a broken one cut in half. */
export function jsonAnswer(answer: Answer): SimReply {
  const body = JSON.stringify(answer.body);
  return {
    action: 'respond',
    status: 200,
    headers: answer.headers,
    body: answer.broken ? body.slice(0, Math.floor(body.length / 2)) : body,
  };
}

/** Calls cut at `maxTokens`, as generation stops mid-argument (finish `length`, the JSON left open). */
function fitCalls(
  calls: readonly WireToolCall[],
  maxTokens: number | null,
): { calls: WireToolCall[]; finishReason: string; tokens: number } {
  const limit = maxTokens != null && maxTokens > 0 ? maxTokens * 4 : Number.POSITIVE_INFINITY;
  const out: WireToolCall[] = [];
  let written = '';
  for (const call of calls) {
    const room = limit - written.length - call.function.name.length;
    if (call.function.arguments.length <= room) {
      out.push(call);
      written += call.function.name + call.function.arguments;
      continue;
    }
    const args = call.function.arguments.slice(0, Math.max(0, room));
    out.push({ ...call, function: { ...call.function, arguments: args } });
    return { calls: out, finishReason: 'length', tokens: tokenCount(written + call.function.name + args) };
  }
  return { calls: out, finishReason: 'tool_calls', tokens: Math.max(1, tokenCount(written)) };
}

/** What the simulated model says when it refuses. */
const REFUSAL = "I'm sorry, but I can't help with that request.";

/** A stable `system_fingerprint` per model and provider, as the services report one per backend configuration. */
function fingerprintOf(model: string, provider: string): string {
  let h = 2166136261;
  for (const ch of `${model}|${provider}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return `fp_${(h >>> 0).toString(16).padStart(8, '0')}`;
}
