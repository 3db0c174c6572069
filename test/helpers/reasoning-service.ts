import type { ServerResponse } from 'node:http';
import { JUDGE_MARKER } from '../../src/checks/judge-prompt.js';
import { type LoopbackService, startLoopbackService } from '../hostile/loopback.js';

/** What the reasoning service does, changed by a test between runs. */
export interface ReasoningKnobs {
  /** Tokens the model thinks before it answers (default 100). */
  thinking: number;
  /** Its reasoning text on the router, as long as the test wants it. */
  reasoning: string;
}

/** OpenAI's answer to `max_tokens` sent to one of its reasoning models (HTTP 400). */
const MAX_TOKENS_REFUSAL = {
  error: {
    message:
      "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
    type: 'invalid_request_error',
    param: 'max_tokens',
    code: 'unsupported_parameter',
  },
};

/** OpenAI's answer to a temperature other than 1 sent to one of its reasoning models (HTTP 400). */
const TEMPERATURE_REFUSAL = (value: unknown) => ({
  error: {
    message: `Unsupported value: 'temperature' does not support ${String(value)} with this model. Only the default (1) value is supported.`,
    type: 'invalid_request_error',
    param: 'temperature',
    code: 'unsupported_value',
  },
});

/**
 * A loopback stand-in for both services serving reasoning models, as their documentation says
 * they behave: the direct service's `o4-mini` refuses `max_tokens` and any temperature but 1
 * (HTTP 400, OpenAI's words) and caps its answer, thinking included, with `max_completion_tokens`; the router's
 * `moonshotai/kimi-k2-thinking` takes either cap and returns its reasoning text. Each thinks
 * `knobs.thinking` tokens first (a judge's prompt is answered with a pass verdict): a cap at or below that is spent thinking, the answer cut off
 * (`length`) with no content. On the router the prompt `cached` is answered with every
 * billable usage counter 0 and no cache header, `hit` with `X-OpenRouter-Cache-Status: HIT`.
 * Every request is kept (`seen`).
 */
export async function startReasoningService(
  knobs: ReasoningKnobs = { thinking: 100, reasoning: 'I add two and two.' },
): Promise<LoopbackService & { knobs: ReasoningKnobs }> {
  const service = await startLoopbackService((req, res) => {
    const body = req.body ?? {};
    const router = req.path.startsWith('/api/');
    if (!router && 'max_tokens' in body) return send(res, 400, MAX_TOKENS_REFUSAL);
    if (!router && 'temperature' in body && body.temperature !== 1)
      return send(res, 400, TEMPERATURE_REFUSAL(body.temperature));
    const cap = (body.max_completion_tokens ?? body.max_tokens ?? 4096) as number;
    const exhausted = knobs.thinking >= cap;
    // A judge's prompt is answered with a verdict, anything else with the sum.
    const judged = req.prompt.startsWith(JUDGE_MARKER);
    const content = exhausted ? '' : judged ? '{"verdict":"pass","reason":"it says 4"}' : '2 + 2 = 4';
    const thinking = Math.min(knobs.thinking, cap);
    const completion = exhausted ? cap : thinking + 3;
    const zero = router && (req.prompt === 'cached' || req.prompt === 'hit');
    const usage = zero
      ? { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, cost: 0 }
      : {
          prompt_tokens: 12,
          completion_tokens: completion,
          total_tokens: 12 + completion,
          completion_tokens_details: { reasoning_tokens: thinking },
          ...(router ? { cost: 0.0001 } : {}),
        };
    const message = {
      role: 'assistant',
      content,
      ...(router ? { reasoning: knobs.reasoning } : {}),
    };
    send(
      res,
      200,
      {
        id: 'gen-r',
        object: 'chat.completion',
        model: req.model,
        choices: [{ index: 0, message, finish_reason: exhausted ? 'length' : 'stop' }],
        usage,
      },
      req.prompt === 'hit' ? { 'x-openrouter-cache-status': 'HIT' } : {},
    );
  });
  return Object.assign(service, { knobs });
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** A config with a router and a direct service on `url`, no retries; `direct` adds to the direct service's entry. */
export const reasoningConfig = (url: string, direct = '') =>
  `services:\n  router: { kind: router, base_url: ${url}/api/v1, api_key_env: OPENROUTER_API_KEY, retries: 0 }\n  direct: { kind: direct, base_url: ${url}/v1, api_key_env: DIRECT_API_KEY, retries: 0${direct} }\n`;
