import { pairedCountsWords } from '../core/words.js';
import { DEFAULT_ALPHA } from '../stats/compare.js';
import { formatP } from '../stats/format-p.js';
import { holmAdjust } from '../stats/holm.js';
import { nearestRank } from '../stats/nearest-rank.js';
import { type PairedCase, type PairedTest, pairedTest } from '../stats/paired.js';
import type { Samples } from '../stats/samples.js';

/**
 * One case of one side (the reference, or a candidate) as a verdict compares them: plain
 * data, so a report, a baseline or a stored compare page can each be turned into it
 * (compare/side.ts reads a run's case so, verdict-cases.ts a baseline's).
 */
export interface VerdictCase {
  /** `suite/case`: the key the two sides are paired on. */
  id: string;
  /** How many of the case's samples passed, of how many that ran (not-run samples excluded). */
  samples: Samples;
  /** Mean cost of one sample in USD, null when no sample reported one. */
  cost: number | null;
  /** Latencies (ms) of the answered samples, one value per answer (or a sketch's values). */
  latency_ms: readonly number[];
  /**
   * Of its samples, those a model answered: every one but those whose error says no model
   * did (error-kinds.ts isUnanswered: refused, not routed, timed out). Absent: every one.
   */
  answered?: number;
}

/** A candidate's cases, under its column's label (the model, or the provider slug). */
export interface VerdictCandidate {
  label: string;
  cases: readonly VerdictCase[];
}

/** What the comparison of one candidate with the reference says, and its one-line verdict. */
export interface CandidateVerdict {
  label: string;
  /** The paired test over the cases both sides ran (p, p_better one-sided and unadjusted). */
  test: PairedTest;
  /** `test.p`, Holm-adjusted over the candidates compared together. */
  p_adjusted: number;
  /** `test.p_better`, Holm-adjusted over the candidates (its own family). */
  p_better_adjusted: number;
  /** Significantly worse than the reference: `p_adjusted` ≤ alpha. */
  worse: boolean;
  /** Significantly better: `p_better_adjusted` ≤ alpha. */
  better: boolean;
  /**
   * Relative change of the cost per sample over the paired cases costed on both sides
   * (−0.38: 38 % cheaper); null when no such case, or the reference cost nothing.
   */
  cost_change: number | null;
  /** The candidate's p95 latency minus the reference's (ms), over the paired cases; null without latencies. */
  p95_change_ms: number | null;
  /** Of the paired cases (`test.cases`), those in which a model answered at least one of the candidate's samples. */
  answered: number;
  /**
   * It answered none of the paired cases, or left some unanswered and answered too few for
   * the paired test to call a difference even were each one a regression (a provider that
   * cannot serve the model, a mistyped provider): it gets no comparative verdict — never
   * worse, better or "no significant regression" — and is left out of the Holm family
   * (its p-values are its test's own).
   */
  could_not_serve: boolean;
  /**
   * `no significant regression: pass rate lower in 1 and higher in 0 of 40 cases (…); 38 %
   * cheaper; p95 latency +120 ms`: what the console prints.
   */
  line: string;
}

/**
 * Each candidate against the reference, paired case by case (pairedTest), with p-values
 * Holm-adjusted over the candidates: when every candidate is as good as the reference, the
 * chance that any of them is called worse stays ≤ alpha (and, as its own family, better).
 * A candidate is compared only on the cases it shares with the reference. Pure.
 */
export function candidateVerdicts(
  reference: readonly VerdictCase[],
  candidates: readonly VerdictCandidate[],
  options: { alpha?: number } = {},
): CandidateVerdict[] {
  const byId = new Map(reference.map((c) => [c.id, c]));
  return verdictsOf(
    candidates.map((candidate) => {
      const pairs = new VerdictPairs();
      for (const c of candidate.cases) {
        const ref = byId.get(c.id);
        if (ref) pairs.add(ref, c);
      }
      return { label: candidate.label, pairs };
    }),
    options,
  );
}

/**
 * A candidate's cases paired with the reference's, as the verdict reads them: each pair's
 * samples, the costs of the pairs costed on both sides, and the latencies of the pairs
 * answered on both sides — numbers, not the cases, so a comparison of 100,000 cases adds
 * them a pair at a time.
 */
export class VerdictPairs {
  private readonly samples: number[] = [];
  private referenceCost = 0;
  private candidateCost = 0;
  private costed = 0;
  private readonly referenceLatency: number[] = [];
  private readonly candidateLatency: number[] = [];
  /** Paired cases (samples on both sides) in which the candidate answered a sample. */
  answered = 0;

  add(reference: VerdictCase, candidate: VerdictCase): void {
    const r = reference.samples;
    const c = candidate.samples;
    this.samples.push(r.pass, r.total, c.pass, c.total);
    if (r.total > 0 && c.total > 0 && (candidate.answered ?? c.total) > 0) this.answered++;
    if (reference.cost !== null && candidate.cost !== null) {
      this.referenceCost += reference.cost;
      this.candidateCost += candidate.cost;
      this.costed++;
    }
    if (reference.latency_ms.length > 0 && candidate.latency_ms.length > 0) {
      for (const v of reference.latency_ms) this.referenceLatency.push(v);
      for (const v of candidate.latency_ms) this.candidateLatency.push(v);
    }
  }

  /** The pairs as the paired test reads them, made one at a time. */
  *cases(): Generator<PairedCase> {
    const s = this.samples;
    for (let i = 0; i < s.length; i += 4)
      yield {
        reference: { pass: s[i]!, total: s[i + 1]! },
        candidate: { pass: s[i + 2]!, total: s[i + 3]! },
      };
  }

  /** Σ candidate cost per sample ÷ Σ reference cost per sample − 1, over the pairs both costed. */
  costChange(): number | null {
    return this.costed === 0 || this.referenceCost === 0 ? null : this.candidateCost / this.referenceCost - 1;
  }

  /** p95 over every answer of the pairs answered on both sides, candidate minus reference. */
  p95Change(): number | null {
    const reference = nearestRank(this.referenceLatency, 0.95);
    const candidate = nearestRank(this.candidateLatency, 0.95);
    return reference === null || candidate === null ? null : Math.round(candidate - reference);
  }
}

/** candidateVerdicts over pairs already made (VerdictPairs), one set per candidate. */
export function verdictsOf(
  candidates: readonly { label: string; pairs: VerdictPairs }[],
  options: { alpha?: number } = {},
): CandidateVerdict[] {
  const alpha = options.alpha ?? DEFAULT_ALPHA;
  const compared = candidates.map(({ label, pairs }) => {
    const test = pairedTest(pairs.cases());
    return { label, test, pairs, unserved: couldNotServe(test.cases, pairs.answered, alpha) };
  });
  // Only candidates that were compared make the family the p-values are adjusted over.
  const family = compared.filter((c) => !c.unserved);
  const holm = holmAdjust(family.map((f) => f.test.p));
  const holmBetter = holmAdjust(family.map((f) => f.test.p_better));
  const adjusted = new Map(family.map((c, i) => [c, holm[i]!]));
  const adjustedBetter = new Map(family.map((c, i) => [c, holmBetter[i]!]));
  return compared.map((c) => {
    const { label, test, pairs, unserved } = c;
    const p_adjusted = adjusted.get(c) ?? test.p;
    const p_better_adjusted = adjustedBetter.get(c) ?? test.p_better;
    const worse = !unserved && test.cases > 0 && p_adjusted <= alpha;
    const better = !unserved && test.cases > 0 && !worse && p_better_adjusted <= alpha;
    const verdict = {
      label,
      test,
      p_adjusted,
      p_better_adjusted,
      worse,
      better,
      cost_change: pairs.costChange(),
      p95_change_ms: pairs.p95Change(),
      answered: pairs.answered,
      could_not_serve: unserved,
    };
    return { ...verdict, line: verdictLine(verdict, family.length) };
  });
}

/**
 * Whether a candidate that answered `answered` of `cases` paired cases could not serve
 * them: none answered, or some not and the rest too few for the paired test to reach
 * `alpha` even were every one of them a regression. A candidate that answered every case
 * is compared, however few they are (its line gives the counts and p).
 */
function couldNotServe(cases: number, answered: number, alpha: number): boolean {
  if (cases === 0 || answered === cases) return false;
  if (answered === 0) return true;
  const regressed = { reference: { pass: 1, total: 1 }, candidate: { pass: 0, total: 1 } };
  return pairedTest(Array.from({ length: answered }, () => regressed)).p > alpha;
}

/**
 * The verdict in one line: the statistical finding first (with its counts and adjusted p),
 * then cost and p95 latency against the reference. `candidates` is how many were adjusted over.
 */
function verdictLine(v: Omit<CandidateVerdict, 'line'>, candidates: number): string {
  const t = v.test;
  if (t.cases === 0) return 'no case in common with the reference: nothing to compare';
  if (v.could_not_serve)
    return `could not serve: ${v.answered} of ${t.cases} answered${v.answered > 0 ? ', too few to test' : ''}`;
  // The test's counts are of pass rates, not of cases' verdicts: their own words (words.ts).
  const counts = pairedCountsWords({ lower: t.regressions, higher: t.fixes, cases: t.cases });
  const method = t.method === 'mcnemar' ? 'McNemar' : 'sign test';
  const holm = candidates > 1 ? `, Holm over ${candidates} candidates` : '';
  const p = (value: number) => `${method} p = ${formatP(value)}${holm}`;
  const finding = v.worse
    ? `significantly worse: ${counts} (${p(v.p_adjusted)})`
    : v.better
      ? `significantly better: ${counts} (${p(v.p_better_adjusted)})`
      : `no significant regression: ${counts} (${p(v.p_adjusted)})`;
  return [finding, costWords(v.cost_change), latencyWords(v.p95_change_ms)]
    .filter((part): part is string => part !== null)
    .join('; ');
}

function costWords(change: number | null): string | null {
  if (change === null) return null;
  // Past twice the cost a ratio reads better than "5804 % dearer".
  const ratio = 1 + change;
  if (ratio >= 2) return `${ratio < 10 ? ratio.toFixed(1) : Math.round(ratio)}× the cost`;
  const percent = Math.round(Math.abs(change) * 100);
  if (percent === 0) return 'same cost';
  return `${percent} % ${change < 0 ? 'cheaper' : 'dearer'}`;
}

function latencyWords(change: number | null): string | null {
  if (change === null) return null;
  return `p95 latency ${change > 0 ? '+' : change < 0 ? '-' : '±'}${Math.abs(change)} ms`;
}
