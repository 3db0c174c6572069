/**
 * Seeded pseudo-random numbers (mulberry32) for reproducible simulations: the benchmark
 * and the error-rate tests print the same figures on every machine.
 */
export function createRng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A sampler whose outcomes pass with probability `rate`: a case with a known true pass rate. */
export function bernoulli(rate: number, random: () => number): () => boolean {
  return () => random() < rate;
}
