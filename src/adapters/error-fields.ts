import { isRecord } from '../util/is-record.js';
import { MAX_MESSAGE_CHARS, shorten } from '../util/shorten.js';

/** What an error object says, read leniently from either service's shape. */
export interface ErrorFields {
  /** `error.type`, else `error.error_type`, else `error.metadata.error_type`. */
  type: string | null;
  /** `availability.code` when present (more precise than the router's numeric code), else `error.code`. */
  code: string | null;
  /** `error.code` as a string, even when availability.code took `code`. */
  rawCode: string | null;
  message: string;
  /** `http_status` inside the error or its metadata (router puts it in either place). */
  innerStatus: number | null;
  availabilityCode: string | null;
  /** `availability.retryable`, when the service said. */
  retryable: boolean | null;
  /** `availability.retry_after` in seconds, when the service said. */
  retryAfterS: number | null;
  metadata: Record<string, unknown> | null;
  /** The model the body names, if any. */
  model: string | null;
}

function str(value: unknown): string | null {
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

function num(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  return null;
}

/** Collapses whitespace and shortens to MAX_MESSAGE_CHARS (bodies can echo whole prompts back), so one error cannot flood a report. */
export function trimMessage(text: string): string {
  return shorten(text.replace(/\s+/g, ' ').trim(), MAX_MESSAGE_CHARS);
}

/**
 * Reads `{error: {...}}` (both services), `{error: "text"}` and a bare `{message}` /
 * `{detail}` (proxies). Returns null when the body carries no error at all.
 */
export function readErrorFields(body: unknown): ErrorFields | null {
  if (!isRecord(body)) return null;
  const raw = body.error;
  if (raw === undefined || raw === null || raw === false) {
    const loose = str(body.message) ?? str(body.detail);
    return loose === null ? null : fromObject({ message: loose }, body);
  }
  if (isRecord(raw)) return fromObject(raw, body);
  // `{"error":"Not Found","message":"Cannot POST /v2/chat/completions"}` (web frameworks'
  // 404s): the string is only a title, the sibling message says what happened — keep both.
  const title = str(raw) ?? JSON.stringify(raw);
  const detail = str(body.message) ?? str(body.detail);
  return fromObject({ message: detail && detail !== title ? `${title}: ${detail}` : title }, body);
}

/** The same reading for an error object found elsewhere (e.g. `choices[0].error`). */
export function readErrorObject(error: unknown, body: unknown = null): ErrorFields {
  if (isRecord(error)) return fromObject(error, isRecord(body) ? body : {});
  return fromObject({ message: str(error) ?? '' }, isRecord(body) ? body : {});
}

function fromObject(error: Record<string, unknown>, body: Record<string, unknown>): ErrorFields {
  const metadata = isRecord(error.metadata) ? error.metadata : null;
  const availability = isRecord(error.availability)
    ? error.availability
    : isRecord(metadata?.availability)
      ? metadata.availability
      : null;
  const availabilityCode = str(availability?.code);
  const rawCode = str(error.code);
  return {
    type: str(error.type) ?? str(error.error_type) ?? str(metadata?.error_type),
    code: availabilityCode ?? rawCode,
    rawCode,
    message: trimMessage(str(error.message) ?? ''),
    innerStatus: num(error.http_status) ?? num(metadata?.http_status),
    availabilityCode,
    retryable: typeof availability?.retryable === 'boolean' ? availability.retryable : null,
    retryAfterS: num(availability?.retry_after),
    metadata,
    model: str(metadata?.model) ?? str(body.model),
  };
}
