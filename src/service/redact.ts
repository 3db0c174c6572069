/** Replaces secrets in text that leaves the process (reports, journals, logs). */
export interface Redactor {
  /** False when there was nothing long enough to look for. */
  readonly active: boolean;
  redact(text: string): { text: string; redacted: boolean };
}

export const REDACTED = '[REDACTED]';
/** Shorter strings would match ordinary words and numbers; no real key is that short. */
const MIN_SECRET_LENGTH = 8;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Builds one alternation RegExp over every secret (longest first), so each text is scanned once. */
export function createRedactor(secrets: readonly string[]): Redactor {
  const unique = [...new Set(secrets.filter((s) => s.length >= MIN_SECRET_LENGTH))];
  // Longest first so a secret that contains another is replaced whole.
  unique.sort((a, b) => b.length - a.length);
  if (unique.length === 0) return { active: false, redact: (text) => ({ text, redacted: false }) };
  const pattern = new RegExp(unique.map(escapeRegExp).join('|'), 'g');
  return {
    active: true,
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
