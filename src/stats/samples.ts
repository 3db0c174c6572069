/**
 * Outcome counts of one case's repeated samples: how many passed out of how many ran.
 * Structurally the same as `BaselineCase.samples`, so a baseline entry can be passed as is.
 */
export interface Samples {
  pass: number;
  total: number;
}

/** Throws on counts no caller should produce (negative, fractional, pass > total): a bug, not data. */
export function assertSamples(s: Samples, label: string): void {
  const ok =
    Number.isInteger(s.pass) && Number.isInteger(s.total) && s.pass >= 0 && s.total >= 0 && s.pass <= s.total;
  if (!ok) throw new RangeError(`${label}: invalid sample counts ${s.pass}/${s.total}`);
}

/** Observed pass rate; NaN when nothing ran, so a missing rate is never mistaken for 0%. */
export function passRate(s: Samples): number {
  return s.total === 0 ? Number.NaN : s.pass / s.total;
}

/** The counts of many cases added up, as a suite-level finding reports them. */
export function sumSamples(list: readonly Samples[]): Samples {
  return list.reduce((a, b) => ({ pass: a.pass + b.pass, total: a.total + b.total }), { pass: 0, total: 0 });
}
