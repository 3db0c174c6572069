import { binomialPmf, hypergeometricPmf } from './distributions.js';
import { assertSamples, type Samples } from './samples.js';

/** One case run under the reference and under a candidate: the two sides of a pair. */
export interface PairedCase {
  reference: Samples;
  candidate: Samples;
}

/**
 * How a paired comparison was decided: `mcnemar` when every paired case has one sample a
 * side (McNemar's test, mid-p), `sign` when any has more (the sign test over the
 * cases' pass-rate differences, conditional on each case's samples: see pairedTest).
 */
type PairedMethod = 'mcnemar' | 'sign';

/** A candidate against the reference over the cases both ran. */
export interface PairedTest {
  method: PairedMethod;
  /** Cases with samples on both sides: the pairs compared. */
  cases: number;
  /**
   * Cases whose candidate pass rate is below the reference's (single samples: reference pass,
   * candidate fail); printed `pass rate lower in …` (core/words.ts), never as cases `regressed`.
   */
  regressions: number;
  /** Cases whose candidate pass rate is above the reference's; printed `… higher in …`, never `fixed`. */
  fixes: number;
  /** One-sided p-value for "the candidate is worse": at least this many of the differing cases are regressions. */
  p: number;
  /** One-sided p-value for "the candidate is better": at least this many of the differing cases are fixes. */
  p_better: number;
}

/**
 * Compares a candidate with the reference case by case, PAIRED: cases differ in difficulty
 * far more than two models differ on a case, so comparing each case with itself sees a
 * small difference that two pooled pass rates hide. A case with no sample on one side is
 * left out (a new case, one not run).
 *
 * One sample a side: McNemar's test from its exact conditional distribution, as a mid-p
 * (midUpper). Only discordant pairs carry evidence; under
 * "no difference" each is a regression or a fix with probability ½, so p is the binomial
 * tail of the regressions among them.
 *
 * Repeats: the sign test (mid-p) over per-case pass rates, with the CASE as the unit — each
 * case counts once, as a regression, a fix or a tie, however many samples it has. Chosen
 * over a test that pools samples (Cochran–Mantel–Haenszel) because samples of one case
 * are not independent draws (near-deterministic models give 10 identical answers, which a
 * pooled test would count as 10 pieces of evidence, so one flipped case would be
 * "significant"), and over a Wilcoxon signed-rank test because ranks of rate differences
 * are only exchangeable between the two sides when both have the same sample count, and
 * the common setup is unequal (1-sample baselines, `--repeat 10` candidates). Given which
 * cases differ, a case is a regression with probability ½ when both sides have as many
 * samples (the classic sign test: exact under exchangeability alone); with unequal counts
 * that probability is taken from the case's hypergeometric split of its passes (both sides
 * passing at one rate, conditional on its total passes), so a 1-sample reference against
 * 10 candidate samples raises no false alarm. The statistic is then a sum of independent
 * Bernoulli trials (Poisson-binomial), its distribution counted exactly. With one sample a
 * side this is the McNemar test above. Pure.
 */
export function pairedTest(cases: Iterable<PairedCase>): PairedTest {
  let paired = 0;
  let single = true;
  const regressionChance: number[] = [];
  let regressions = 0;
  let fixes = 0;
  for (const { reference, candidate } of cases) {
    assertSamples(reference, 'reference');
    assertSamples(candidate, 'candidate');
    if (reference.total === 0 || candidate.total === 0) continue;
    paired++;
    if (reference.total !== 1 || candidate.total !== 1) single = false;
    // Cross-multiplied, so rates of different sample counts compare without rounding.
    const order = candidate.pass * reference.total - reference.pass * candidate.total;
    if (order === 0) continue;
    if (order < 0) regressions++;
    else fixes++;
    regressionChance.push(nullRegressionChance(reference, candidate));
  }
  const differing = regressions + fixes;
  const method: PairedMethod = single ? 'mcnemar' : 'sign';
  const fair = regressionChance.every((q) => q === 0.5);
  const p = midUpper(fair ? binomialPmf(differing, 0.5) : poissonBinomial(regressionChance), regressions);
  const p_better = midUpper(
    fair ? binomialPmf(differing, 0.5) : poissonBinomial(regressionChance.map((q) => 1 - q)),
    fixes,
  );
  return { method, cases: paired, regressions, fixes, p, p_better };
}

/**
 * The chance that a case which differs is a regression rather than a fix, under "both sides
 * pass at the same rate", given the case's total passes. Equal sample counts: ½ by symmetry.
 */
function nullRegressionChance(reference: Samples, candidate: Samples): number {
  if (reference.total === candidate.total) return 0.5;
  const all = reference.total + candidate.total;
  const passes = reference.pass + candidate.pass;
  const { low, pmf } = hypergeometricPmf(all, passes, candidate.total);
  let regression = 0;
  let fix = 0;
  pmf.forEach((chance, i) => {
    const x = low + i;
    // x candidate passes of candidate.total against passes − x of reference.total.
    const order = x * all - passes * candidate.total;
    if (order < 0) regression += chance;
    else if (order > 0) fix += chance;
  });
  return regression / (regression + fix);
}

/** The distribution of the number of successes among independent trials succeeding with the given chances. */
function poissonBinomial(chances: readonly number[]): Float64Array {
  let dist = new Float64Array([1]);
  for (const q of chances) {
    const next = new Float64Array(dist.length + 1);
    for (let i = 0; i < dist.length; i++) {
      next[i]! += dist[i]! * (1 - q);
      next[i + 1]! += dist[i]! * q;
    }
    dist = next;
  }
  return dist;
}

/**
 * The mid-p upper tail: P(X > k) + ½ P(X = k). The exact tail P(X ≥ k) of a discrete
 * statistic is conservative — its real size sits well under α, most at the small counts a
 * candidate comparison has — and the mid-p is the remedy Fagerland, Lydersen & Laake (2013,
 * "The McNemar test for binary matched-pairs data: mid-p and asymptotic are better than
 * exact conditional") found to keep the size near α in every design they tried. Measured
 * here (bench/verdicts-paired.ts, 200 single-sample cases): 3 candidates as good as the
 * reference are called worse in 2.0 % of trials with the exact tail and 4.1 % with mid-p
 * (both under 5 %), and a candidate 5 points worse is caught 75.2 % against 82.4 %.
 */
function midUpper(pmf: Float64Array, k: number): number {
  if (k <= 0) return 1;
  let p = 0.5 * (pmf[k] ?? 0);
  for (let i = k + 1; i < pmf.length; i++) p += pmf[i]!;
  return Math.min(1, p);
}
