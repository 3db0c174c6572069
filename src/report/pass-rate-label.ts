import type { PassRate } from '../stored/report/types.js';

/**
 * The pass-rate test's verdict as the reports print it, with a weak baseline said beside
 * it, so `stable` against one baseline sample is not read as "nothing changed".
 */
export function verdictLabel(p: PassRate): string {
  if (!p.weak_baseline || !p.baseline) return p.verdict;
  const n = p.baseline.total;
  return `${p.verdict} (weak baseline: ${n} sample${n === 1 ? '' : 's'})`;
}
