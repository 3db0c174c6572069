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

/**
 * `$0.0123`, `$0.000184`, `$0.0000001`: four decimals for cents and up, three significant
 * digits below, written out in decimals (never `1e-7`).
 */
export function formatUsd(value: number): string {
  if (value === 0) return '$0';
  if (Math.abs(value) >= 0.01) return `$${value.toFixed(4)}`;
  const rounded = Number(value.toPrecision(3));
  // toFixed writes decimals where String() would switch to an exponent (below 1e-6).
  const decimals = Math.min(100, 2 - Math.floor(Math.log10(Math.abs(rounded))));
  return `$${rounded.toFixed(decimals).replace(/(\.\d*?)0+$/, '$1')}`;
}

/** A change as a signed whole percentage (`+200%`, `-25%`), or `from zero`. */
export function percent(from: number, to: number): string {
  if (from === 0) return 'from zero';
  const p = Math.round(((to - from) / from) * 100);
  return `${p > 0 ? '+' : ''}${p}%`;
}
