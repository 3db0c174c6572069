/**
 * An integer with thousands separators, `12345` → `12,345` (what `toLocaleString('en-US')`
 * gives, without its first call's ~20 ms of ICU set-up on every run).
 */
export function groupDigits(n: number): string {
  if (!Number.isSafeInteger(n)) return String(n);
  const digits = String(Math.abs(n));
  let out = '';
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += ',';
    out += digits[i];
  }
  return n < 0 ? `-${out}` : out;
}

/** A count with its noun, singular for one: `1 case`, `1,000 samples`. */
export function countOf(n: number, noun: string): string {
  return `${groupDigits(n)} ${n === 1 ? noun : `${noun}s`}`;
}
