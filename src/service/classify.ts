import type { CaseError, ServiceKind } from '../types.js';
import { DIRECT_RULES } from './classify-direct.js';
import { ROUTER_RULES } from './classify-router.js';
import { type ErrorFields, readErrorFields } from './error-fields.js';
import { applyRules } from './rules.js';

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
      return {
        ...base,
        kind: 'bad_response',
        message: `HTTP 404 with ${what}; check the service's base_url`,
      };
    }
    const verdict = applyRules(input.kind === 'router' ? ROUTER_RULES : DIRECT_RULES, { ...fields, status });
    return { ...base, kind: verdict.kind, message: `HTTP ${status} with ${what}` };
  }
  const verdict = applyRules(input.kind === 'router' ? ROUTER_RULES : DIRECT_RULES, { ...fields, status });
  return {
    ...base,
    kind: verdict.kind,
    code: verdict.code ?? base.code,
    message: fields.message || `HTTP ${status} without an error message`,
  };
}
