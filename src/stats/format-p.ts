/** A p-value as drift messages print it: three decimals, or two significant digits in e-notation below 0.001. */
export function formatP(p: number): string {
  return p < 0.001 ? p.toExponential(1) : p.toFixed(3);
}
