/**
 * Holm's step-down adjustment: adjusted p-values whose "≤ alpha" flags keep the chance
 * of any false flag among the family ≤ alpha, whatever the dependence between tests.
 */
export function holmAdjust(pValues: readonly number[]): number[] {
  const m = pValues.length;
  const order = pValues.map((p, i) => ({ p, i })).sort((a, b) => a.p - b.p);
  const adjusted = new Array<number>(m).fill(1);
  let running = 0;
  order.forEach(({ p, i }, rank) => {
    // Monotone: a smaller raw p never gets a larger adjusted p than a bigger one.
    running = Math.max(running, Math.min(1, (m - rank) * p));
    adjusted[i] = running;
  });
  return adjusted;
}
