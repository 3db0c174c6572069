import { parseJson } from './body.js';

/** Replaces secrets in text that leaves the process (reports, journals, logs). */
export interface Redactor {
  /** False when there was nothing long enough to look for. */
  readonly active: boolean;
  redact(text: string): { text: string; redacted: boolean };
  /** Whether the text holds a secret: a look without building anything (most texts hold none). */
  finds(text: string): boolean;
}

const REDACTED = '[REDACTED]';
/** Shorter strings would match ordinary words and numbers; no real key is that short. */
const MIN_SECRET_LENGTH = 8;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Builds one alternation RegExp over every secret (longest first), so each text is scanned
 * once. Each secret is also looked for as it is written inside a JSON string (a `"` or `\`
 * in it escaped), so a JSON body read as text is covered too.
 */
export function createRedactor(secrets: readonly string[]): Redactor {
  const long = secrets.filter((s) => s.length >= MIN_SECRET_LENGTH);
  const unique = [...new Set(long.flatMap((s) => [s, JSON.stringify(s).slice(1, -1)]))];
  // Longest first so a secret that contains another is replaced whole.
  unique.sort((a, b) => b.length - a.length);
  if (unique.length === 0)
    return { active: false, redact: (text) => ({ text, redacted: false }), finds: () => false };
  const source = unique.map(escapeRegExp).join('|');
  const pattern = new RegExp(source, 'g');
  // Without the global flag, so a look keeps no lastIndex between texts.
  const look = new RegExp(source);
  return {
    active: true,
    finds: (text) => look.test(text),
    redact(text) {
      let redacted = false;
      const out = text.replace(pattern, () => {
        redacted = true;
        return REDACTED;
      });
      return { text: out, redacted };
    },
  };
}

/** JSON escapes that can spell any character (`\u0073k-…`, `\/`): a scan of the raw text misses what they hide. */
const HIDING_ESCAPE = /\\[u/]/;

/**
 * A response body as read from the wire, with every secret replaced: the raw text, and the
 * JSON it parses to when escapes could hide a secret from the raw scan (then the body
 * becomes that JSON re-written plainly, so what is parsed downstream holds no secret either).
 * `json` is that parse when it found nothing hidden, so the reader need not parse again.
 */
export function redactBody(
  redactor: Redactor,
  text: string,
): { text: string; redacted: boolean; json?: { value: unknown } } {
  const raw = redactor.redact(text);
  if (!redactor.active || !HIDING_ESCAPE.test(raw.text)) return raw;
  const value = parseJson(raw.text);
  if (value === undefined) return raw;
  const plain = redactor.redact(JSON.stringify(value));
  return plain.redacted ? plain : { ...raw, json: { value } };
}

type HeaderValues = Record<string, string | string[] | undefined>;

/** Response headers with every secret in their values replaced (a header may echo the key too). */
export function redactHeaders<H extends HeaderValues>(
  redactor: Redactor,
  headers: H,
): { headers: H; redacted: boolean } {
  if (!redactor.active) return { headers, redacted: false };
  // Every answer's headers pass here: a look first, and a copy only when one holds a secret.
  let found = false;
  for (const name in headers) {
    const value = headers[name];
    if (Array.isArray(value) ? value.some(redactor.finds) : value !== undefined && redactor.finds(value)) {
      found = true;
      break;
    }
  }
  if (!found) return { headers, redacted: false };
  let redacted = false;
  const scrub = (value: string): string => {
    const r = redactor.redact(value);
    if (r.redacted) redacted = true;
    return r.text;
  };
  const out: HeaderValues = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name] = Array.isArray(value) ? value.map(scrub) : value === undefined ? value : scrub(value);
  }
  return { headers: redacted ? (out as H) : headers, redacted };
}
