/**
 * `repeat: auto`: the first look after 10 samples, more in steps of 10 only while the
 * verdict is uncertain, never more than 40 — the design the sequential test is calibrated
 * for (see bench/verdicts.ts for its measured error rates).
 */
export const ADAPTIVE_SAMPLING = { min: 10, cap: 40 } as const;
