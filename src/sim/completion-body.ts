import type { SimFlavour } from '../adapters/index.js';
import type { ReasoningDetail } from './agent.js';
import type { WireToolCall } from './tool-turn.js';

/** The pieces of a successful-status chat-completion body. */
export interface BodyParts {
  id: string;
  created: number;
  /** The concrete model (never an alias). */
  model: string;
  /** Router only: upstream provider name. */
  provider: string;
  /** `system_fingerprint`: the backend configuration that answered. */
  fingerprint: string;
  content: string;
  /** A refusal: no content, this text in `message.refusal`. */
  refusal?: string | null;
  finishReason: string | null;
  /** Tool calls: the message then has `content: null` and these in `tool_calls`. */
  toolCalls?: WireToolCall[];
  /** A reasoning model's turn (router): `message.reasoning` is their text, `message.reasoning_details` these. */
  reasoning?: ReasoningDetail[];
  promptTokens: number;
  /** Every token generated, reasoning tokens among them. */
  completionTokens: number;
  /** Of the completion tokens, those spent thinking (`completion_tokens_details.reasoning_tokens`); null: not counted. */
  reasoningTokens?: number | null;
  /** Router only: USD cost of this completion. */
  cost: number;
}

/** Reasoning details as a message's `reasoning` says them: their texts, a line each. */
export function reasoningText(details: readonly ReasoningDetail[]): string {
  return details.map((r) => r.text).join('\n');
}

/** How the 200 body looks: a normal answer, no choices at all, or an error object instead of choices. */
export type BodyShape = 'normal' | 'empty_choices' | 'body_error';

/** A 200 chat-completion body in the platform's shape. */
export function completionBody(kind: SimFlavour, p: BodyParts, shape: BodyShape): Record<string, unknown> {
  const head: Record<string, unknown> =
    kind === 'router'
      ? {
          id: p.id,
          provider: p.provider,
          model: p.model,
          object: 'chat.completion',
          created: p.created,
          system_fingerprint: p.fingerprint,
        }
      : {
          id: p.id,
          object: 'chat.completion',
          created: p.created,
          model: p.model,
          system_fingerprint: p.fingerprint,
        };
  if (shape === 'body_error') {
    return {
      ...head,
      choices: [],
      error: {
        code: 502,
        message: 'Provider returned error',
        metadata: { error_type: 'provider_overloaded', provider_code: 'overloaded' },
      },
    };
  }
  const usage: Record<string, unknown> = {
    prompt_tokens: p.promptTokens,
    completion_tokens: p.completionTokens,
    total_tokens: p.promptTokens + p.completionTokens,
  };
  if (p.reasoningTokens != null) usage.completion_tokens_details = { reasoning_tokens: p.reasoningTokens };
  if (kind === 'router') usage.cost = p.cost;
  if (shape === 'empty_choices') return { ...head, choices: [], usage };
  const message = p.refusal
    ? { role: 'assistant', content: null, refusal: p.refusal }
    : p.toolCalls
      ? {
          role: 'assistant',
          content: null,
          tool_calls: p.toolCalls,
          refusal: null,
          ...(p.reasoning ? { reasoning: reasoningText(p.reasoning), reasoning_details: p.reasoning } : {}),
        }
      : {
          role: 'assistant',
          content: p.content,
          refusal: null,
          ...(p.reasoning ? { reasoning: reasoningText(p.reasoning), reasoning_details: p.reasoning } : {}),
        };
  const choice: Record<string, unknown> =
    kind === 'router'
      ? {
          logprobs: null,
          finish_reason: p.finishReason,
          native_finish_reason: p.finishReason,
          index: 0,
          message,
        }
      : { index: 0, message, logprobs: null, finish_reason: p.finishReason };
  return { ...head, choices: [choice], usage };
}
