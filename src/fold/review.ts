import { isRegressed } from '../core/words.js';
import type { CaseEntry } from '../stored/report/types.js';

/**
 * How much a finished case asks of a reviewer, decided here once by the fold: every view
 * lists cases by this order, worst first, and picks the classes it shows from it — the
 * console and summary.md list the first four, report.html sorts every case by it, JUnit
 * reads its failures from it. A view that lists several classes under one heading
 * (summary.md's "Failures and errors") lists them in plan order under it.
 *
 * - `regressed`: a drift of severity fail against the baseline (isRegressed), whatever the status;
 * - `errored`, `failed`: its status, without a regression;
 * - `drift_warn`: a drift of severity warn worth a look (a changed model, usage, answer);
 * - `not_run`: never sent (a stopped run), nothing worse to say of it;
 * - `drift_info`: a drift of severity info other than being new (a close answer);
 * - `passed`: the rest: passed, new or unchanged. A case the fold calls `brief` is always this.
 */
export const REVIEW_ORDER = [
  'regressed',
  'errored',
  'failed',
  'drift_warn',
  'not_run',
  'drift_info',
  'passed',
] as const;
export type ReviewClass = (typeof REVIEW_ORDER)[number];

/** A class's place in REVIEW_ORDER: report.html embeds it as each case's `rank`. */
export const REVIEW_RANK: Readonly<Record<ReviewClass, number>> = rankOf(REVIEW_ORDER);

/**
 * What a case is for CI, the JUnit testcase it becomes: `error` when the service errored
 * (a regression or not), `failure` when it regressed or failed its checks, `skipped` when it
 * was not sent, else `pass`. The run's exit code fails on the same cases (fold/summary.ts).
 */
export const OUTCOMES = ['error', 'failure', 'skipped', 'pass'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/**
 * How a repeated case's pass rate asks for a look, worst first: `failing` (its verdict is
 * fail), then its test's verdict against the baseline — `dropped`, `flaky`, `new`, `stable`
 * (PassRate.verdict). report.html's pass-rate table lists them in this order; summary.md
 * lists the first three.
 */
export const RATE_ORDER = ['failing', 'dropped', 'flaky', 'new', 'stable'] as const;
export type RateConcern = (typeof RATE_ORDER)[number];

/** How the fold publishes one case beside its entry: its review class, CI outcome and pass-rate concern. */
export interface CaseReview {
  review: ReviewClass;
  outcome: Outcome;
  /** Null for a case sampled once (no pass rate). */
  rate: RateConcern | null;
}

/** What the classes are decided from: a case's status, drift and pass rate. */
export type Reviewed = Pick<CaseEntry, 'status' | 'drift' | 'pass_rate'>;

/** The one place a case's review class, outcome and pass-rate concern are decided. Pure. */
export function reviewCase(c: Reviewed): CaseReview {
  const review = reviewClassOf(c);
  return { review, outcome: outcomeOf(c, review), rate: rateConcernOf(c) };
}

function reviewClassOf(c: Reviewed): ReviewClass {
  if (isRegressed(c)) return 'regressed';
  if (c.status === 'error') return 'errored';
  if (c.status === 'fail') return 'failed';
  if (c.drift.some((d) => d.severity === 'warn')) return 'drift_warn';
  if (c.status === 'not_run') return 'not_run';
  if (c.drift.some((d) => d.kind !== 'new_case')) return 'drift_info';
  return 'passed';
}

function outcomeOf(c: Reviewed, review: ReviewClass): Outcome {
  if (c.status === 'error') return 'error';
  if (review === 'regressed' || review === 'failed') return 'failure';
  return c.status === 'not_run' ? 'skipped' : 'pass';
}

function rateConcernOf(c: Reviewed): RateConcern | null {
  if (!c.pass_rate) return null;
  return c.status === 'fail' ? 'failing' : c.pass_rate.verdict;
}

/** How many of these counts' classes there are together: `countOf(totals.review, ['errored', 'failed'])`. */
export function countOf<K extends string>(
  counts: Readonly<Record<K, number>>,
  classes: readonly K[],
): number {
  let n = 0;
  for (const k of classes) n += counts[k];
  return n;
}

/** Each class of an order at zero: what a tally starts from. */
export function zeroCounts<K extends string>(order: readonly K[]): Record<K, number> {
  return Object.fromEntries(order.map((k) => [k, 0])) as Record<K, number>;
}

function rankOf<K extends string>(order: readonly K[]): Record<K, number> {
  return Object.fromEntries(order.map((k, i) => [k, i])) as Record<K, number>;
}

/**
 * What a view keeps of the cases it lists while a run is folded: the first `keep` of each
 * class in plan order, never more (a view shows fewer than that), so memory stays flat
 * however many cases there are. It holds whatever the view makes of a case (the entry, a
 * rendered row) and gives them back in the fold's order; it ranks nothing itself.
 */
export class Shortlist<K extends string, T> {
  private readonly kept = new Map<K, { at: number; item: T }[]>();
  private added = 0;

  constructor(
    private readonly order: readonly K[],
    private readonly keep: number,
  ) {
    for (const k of order) this.kept.set(k, []);
  }

  /** One case of class `k`, in plan order; past the first `keep` of its class it is let go. */
  add(k: K, item: T): void {
    const list = this.kept.get(k);
    if (!list) throw new Error(`Shortlist: no class ${k} in its order`);
    const at = this.added++;
    if (list.length < this.keep) list.push({ at, item });
  }

  /** The kept items of these classes (default all), class by class in the order, plan order within one. */
  worstFirst(classes: readonly K[] = this.order): T[] {
    return this.order.filter((k) => classes.includes(k)).flatMap((k) => this.kept.get(k)!.map((e) => e.item));
  }

  /** The kept items of these classes in plan order, as a view that lists them under one heading shows them. */
  inPlanOrder(classes: readonly K[]): T[] {
    return classes
      .flatMap((k) => this.kept.get(k) ?? [])
      .sort((a, b) => a.at - b.at)
      .map((e) => e.item);
  }
}
