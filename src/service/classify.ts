import type { ServiceKind } from '../config/types.js';
import type { CaseError } from '../core/answer.js';
import { ADAPTERS } from '../adapters/index.js';
import { type ErrorFields, readErrorFields, trimMessage } from '../adapters/error-fields.js';
import { isRecord } from '../util/is-record.js';
import { applyRules, MODEL_ID_MESSAGE } from '../adapters/rules.js';

export type HeaderMap = Record<string, string | string[] | undefined>;

/** What came back from a call that did not succeed: status, parsed body (or raw text), headers. */
export interface HttpFailure {
  kind: ServiceKind;
  status: number;
  /** Parsed JSON, or the raw text when the body was not JSON, or null when empty. */
  body: unknown;
  headers: HeaderMap;
  /** The model id the request named. */
  model: string;
}

const EMPTY_FIELDS: ErrorFields = {
  type: null,
  code: null,
  rawCode: null,
  message: '',
  innerStatus: null,
  availabilityCode: null,
  retryable: null,
  retryAfterS: null,
  metadata: null,
  model: null,
};

/** Reads one header whatever its case and arity. */
export function headerValue(headers: HeaderMap, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== wanted || value === undefined) continue;
    return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

const CHECK_BASE_URL =
  "no chat-completion endpoint answered there: check the service's base_url (it ends in /v1; the router's in /api/v1)";

/**
 * Whether a 404 came from something other than the chat-completion API: both services
 * answer with an `error` object (OpenAI-style `{error:{type,message}}`, the router's
 * `{error:{code,message}}`); a web framework's own 404 says `{"error":"Not Found",
 * "message":"Cannot POST /v2/chat/completions"}` or just `{"message":…}`.
 */
function notTheApi(body: unknown, fields: ErrorFields): boolean {
  // OpenAI: "Invalid URL (POST /v1/chat/completionz)"; frameworks: "Cannot POST …", "no route".
  const path =
    /\b(?:cannot (?:post|get)|no route|invalid url|unknown (?:request )?(?:path|url|endpoint|route))\b/i;
  if (path.test(fields.message) || fields.code === 'unknown_url') return true;
  if (MODEL_ID_MESSAGE.test(fields.message)) return false;
  return !(isRecord(body) && isRecord(body.error));
}

/** Turns a non-2xx answer into DESIGN's error vocabulary; pure and table-driven, per service kind. */
export function classifyHttpFailure(input: HttpFailure): CaseError {
  const { status } = input;
  const json = input.body !== null && typeof input.body === 'object';
  const fields = (json ? readErrorFields(input.body) : null) ?? EMPTY_FIELDS;
  const base = {
    http_status: status,
    type: fields.type,
    code: fields.code,
    model: fields.model ?? input.model,
  };
  if (!json) {
    const contentType =
      headerValue(input.headers, 'content-type')?.split(';')[0]?.trim() || 'no content type';
    const empty = input.body === null || input.body === undefined || input.body === '';
    const what = empty ? 'an empty body' : `a non-JSON body (${contentType})`;
    // A 404 page that is not JSON comes from a wrong path, not from the API: the base URL is the suspect.
    if (status === 404) {
      return { ...base, kind: 'endpoint_not_found', message: `HTTP 404 with ${what}; ${CHECK_BASE_URL}` };
    }
    const verdict = applyRules(ADAPTERS[input.kind].rules, { ...fields, status });
    return { ...base, kind: verdict.kind, message: `HTTP ${status} with ${what}` };
  }
  // Both services document a 404 for an unknown model (OpenAI "The model … does not exist",
  // Moonshot "Not found the model", the router's model_not_found / no_endpoints). A 404 that
  // says nothing about a model (`Cannot POST /v2/chat/completions`, `Not Found`) reached no
  // chat-completion endpoint: the base URL is wrong, and every case would fail the same way.
  if (status === 404 && notTheApi(input.body, fields)) {
    return {
      ...base,
      kind: 'endpoint_not_found',
      message: trimMessage(`${fields.message || 'HTTP 404'}; ${CHECK_BASE_URL}`),
    };
  }
  // The router's 402 for its *in-flight* budget says when to come back (Retry-After): a
  // wait, not an account out of credit ("a 402 without the header is not a wait-and-retry case").
  if (
    status === 402 &&
    fields.metadata?.limit_source === 'openrouter_in_flight_budget' &&
    headerValue(input.headers, 'retry-after') !== undefined
  ) {
    return {
      ...base,
      kind: 'rate_limited',
      code: 'openrouter_in_flight_budget',
      message: fields.message || 'in-flight budget in use',
    };
  }
  const verdict = applyRules(ADAPTERS[input.kind].rules, { ...fields, status });
  const message = fields.message || `HTTP ${status} without an error message`;
  return {
    ...base,
    kind: verdict.kind,
    code: verdict.code ?? base.code,
    message: MAX_TOKENS_REFUSED.test(message) ? trimMessage(`${message} (${TAKE_COMPLETION_CAP})`) : message,
  };
}

/** OpenAI's answer to `max_tokens` sent to a reasoning model ("Unsupported parameter: 'max_tokens' … Use 'max_completion_tokens' instead."). */
const MAX_TOKENS_REFUSED = /unsupported parameter:? '?max_tokens'?[^]*max_completion_tokens/i;

const TAKE_COMPLETION_CAP =
  "driftcheck: set max_tokens_param: max_completion_tokens on the service in the config, or give the suite's params max_completion_tokens";
