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

/** The characters JSON may write as a backslash and one letter, and that letter. */
const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  '\b': 'b',
  '\f': 'f',
  '\n': 'n',
  '\r': 'r',
  '\t': 't',
};

/** `006[bB]`: a UTF-16 code unit as the four hex digits of its `\uXXXX`, either case. */
function hexDigits(unit: number): string {
  return [...unit.toString(16).padStart(4, '0')]
    .map((d) => (/[a-f]/.test(d) ? `[${d}${d.toUpperCase()}]` : d))
    .join('');
}

/**
 * One UTF-16 code unit of a secret in every spelling a JSON reader turns back into it: as
 * it is, as `\uXXXX`, or as its short escape (`\/`, `\"`), behind any number of backslashes
 * — one layer of JSON doubles them, and a model writes JSON inside a JSON string (tool-call
 * arguments, JSON in an answer) that the client decodes once more.
 */
function unitPattern(unit: string, first: boolean): string {
  const short = SHORT_ESCAPES[unit];
  // A secret's first character, escaped, is looked for only from the first backslash of a
  // run: tried at every backslash of a long run, `\\+` made each scan quadratic in the run
  // (80 KB of backslashes took 8.7 s).
  const from = first ? '(?<!\\\\)' : '';
  const escaped = `${from}\\\\+(?:u${hexDigits(unit.charCodeAt(0))}${short ? `|${escapeRegExp(short)}` : ''})`;
  return `(?:${escapeRegExp(unit)}|${escaped})`;
}

/**
 * Builds one alternation RegExp over every secret (longest first), so each text is scanned
 * once. Most texts cannot hide a secret in escapes (no backslash before a letter that could
 * spell one of its characters): those are scanned for the secrets as they are; the others
 * with each character allowed in any JSON spelling (unitPattern), so a key written
 * `\u0073k-…` in tool-call arguments — at any depth of JSON in JSON, valid JSON or not —
 * is replaced whole, before anything decodes it.
 */
export function createRedactor(secrets: readonly string[]): Redactor {
  const unique = [...new Set(secrets.filter((s) => s.length >= MIN_SECRET_LENGTH))];
  // Longest first so a secret that contains another is replaced whole.
  unique.sort((a, b) => b.length - a.length);
  if (unique.length === 0)
    return { active: false, redact: (text) => ({ text, redacted: false }), finds: () => false };
  const plain = unique.map(escapeRegExp).join('|');
  const spelled = unique
    .map((s) =>
      s
        .split('')
        .map((unit, i) => unitPattern(unit, i === 0))
        .join(''),
    )
    .join('|');
  // The escapes that can spell a character of some secret: `\u` always, `\/` for a key with `/`.
  const letters = new Set([
    'u',
    ...unique.flatMap((s) => s.split('').flatMap((c) => SHORT_ESCAPES[c] ?? [])),
  ]);
  const mayHide = new RegExp(`\\\\[${escapeRegExp([...letters].join(''))}]`);
  const patterns = { plain: new RegExp(plain, 'g'), spelled: new RegExp(spelled, 'g') };
  // Without the global flag, so a look keeps no lastIndex between texts.
  const looks = { plain: new RegExp(plain), spelled: new RegExp(spelled) };
  const which = (text: string) => (mayHide.test(text) ? 'spelled' : 'plain');
  return {
    active: true,
    finds: (text) => looks[which(text)].test(text),
    redact(text) {
      let redacted = false;
      const out = text.replace(patterns[which(text)], () => {
        redacted = true;
        return REDACTED;
      });
      return { text: out, redacted };
    },
  };
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
