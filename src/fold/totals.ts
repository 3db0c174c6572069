import type { ErrorKind } from '../core/answer.js';
import type { DriftKind } from '../record/drift-kinds.js';
import type { CaseEntry, Summary, SuiteReport, TokenTotals, UnjudgedSteps } from '../stored/report/types.js';
import {
  type CaseReview,
  OUTCOMES,
  type Outcome,
  RATE_ORDER,
  type RateConcern,
  REVIEW_ORDER,
  type ReviewClass,
  zeroCounts,
} from './review.js';
import { countCase, countFindings, emptySummary } from './summary.js';
import { compareText } from '../util/compare-text.js';

/** A provider (or concrete model) and the cases it served. */
export interface Served {
  name: string;
  cases: number;
}

/** A suite whose cases the router could not route (its `routing` answer), with its words. */
export interface Unrouted {
  suite: string;
  /** The requested model of the suite's first case. */
  model: string;
  /** Cases with a routing error, of `total`. */
  cases: number;
  total: number;
  /** The first routing error's message. */
  message: string;
}

/**
 * What every view shows of a run or of one suite, added up once by the fold as its cases
 * are folded (never by holding them): the console, report.html, summary.md, JUnit and the
 * comparison render these and count nothing themselves. Read-only once published.
 */
/** Tool calls over the cases that asked with tools, with their rates. */
export interface ToolTotals {
  cases: number;
  answered: number;
  triggered: number;
  valid: number;
  /** triggered ÷ answered (0 when nothing was answered). */
  trigger_rate: number;
  /** valid ÷ triggered; null when no call was made. */
  valid_rate: number | null;
}

export interface Totals {
  /** The counts report.json's `summary` holds (fold/summary.ts counts them), over these cases and suites. */
  counts: Summary;
  /** Cases per review class, per CI outcome, and repeated cases per pass-rate concern (fold/review.ts). */
  review: Record<ReviewClass, number>;
  outcomes: Record<Outcome, number>;
  rates: Record<RateConcern, number>;
  /** Cases the fold called `brief` (CaseEntry.detail). */
  brief: number;
  /** Cases per drift kind they have (a case counts once per kind), in the order the kinds were first seen. */
  drift_kinds: ReadonlyMap<DriftKind, number>;
  /** Samples sent, and their tokens (errors included: they were billed). */
  samples: number;
  tokens: { prompt: number; completion: number; total: number };
  /**
   * USD summed in plan order over the cases that reported a cost, and the steps of
   * conversations stopped part-way (`unjudged`): what the run spent; null when none reported one.
   */
  cost: number | null;
  /** Steps of conversations the run stopped part-way: paid for, never judged; null when none was. */
  unjudged: UnjudgedSteps | null;
  /** Cases that reported a cost. */
  costed: number;
  /** Tool calls over the cases that asked with tools, with their rates; null when none did. */
  tools: ToolTotals | null;
  /** Error kinds over the samples, with counts, in the order first seen. */
  error_kinds: Record<string, number>;
  /**
   * Latency of the answered samples (each case's sketch; a report without sketches gives its
   * median), nearest rank over all of them; null when none was timed.
   */
  latency_ms: { p50: number; p95: number; samples: number } | null;
  /**
   * Time to first token of the streamed samples (each streamed case's sketch), nearest rank
   * over all of them; null when none was streamed.
   */
  ttft_ms: { p50: number; p95: number; samples: number } | null;
  /** Each case's median latency times its samples sent, summed: about how long the samples took (JUnit's time). */
  time_ms: number;
  /** Cases each provider and each concrete model served, most first. */
  providers: Served[];
  models: Served[];
  /** Suites with cases the router could not route, in the order first seen. */
  unrouted: Unrouted[];
  /** This run's usage and the baseline's over the cases both answered, over the suites; null when none compares. */
  compared: { cases: number; run: TokenTotals; baseline: TokenTotals } | null;
}

/**
 * Adds up Totals a case at a time (and a suite at a time, for its own findings and its
 * "vs baseline" usage). What it holds is bounded by the distinct values it counts — kinds,
 * names, suites, latencies in milliseconds — never by the cases added.
 */
export class TotalsTally {
  private readonly counts = emptySummary();
  private readonly review = zeroCounts(REVIEW_ORDER);
  private readonly outcomes = zeroCounts(OUTCOMES);
  private readonly rates = zeroCounts(RATE_ORDER);
  private brief = 0;
  private readonly driftKinds = new Map<DriftKind, number>();
  private samples = 0;
  private readonly tokens = { prompt: 0, completion: 0, total: 0 };
  private cost: number | null = null;
  private costed = 0;
  private readonly tools = { cases: 0, answered: 0, triggered: 0, valid: 0 };
  private readonly errorKinds: Record<string, number> = {};
  private readonly latencies = new ValueCounts();
  private readonly ttfts = new ValueCounts();
  private time = 0;
  private readonly providers = new Map<string, number>();
  private readonly models = new Map<string, number>();
  private readonly routing = new Map<string, Unrouted>();
  /** The suite of the case last added (a suite's cases come together). */
  private lastSuite: Unrouted | null = null;
  private compared: Totals['compared'] = null;
  private unjudged: UnjudgedSteps | null = null;

  /** One folded case, with what the fold decided of it. */
  add(c: CaseEntry, r: CaseReview): void {
    countCase(this.counts, c);
    this.review[r.review]++;
    this.outcomes[r.outcome]++;
    if (r.rate) this.rates[r.rate]++;
    if (c.detail === 'brief') this.brief++;
    if (c.drift.length > 0) {
      const kinds = c.drift.length === 1 ? [c.drift[0]!.kind] : new Set(c.drift.map((d) => d.kind));
      for (const kind of kinds) this.driftKinds.set(kind, (this.driftKinds.get(kind) ?? 0) + 1);
    }
    const s = c.stats;
    this.samples += c.samples.sent;
    this.tokens.prompt += s.prompt_tokens;
    this.tokens.completion += s.completion_tokens;
    this.tokens.total += s.total_tokens;
    if (s.cost !== null) {
      this.cost = (this.cost ?? 0) + s.cost;
      this.costed++;
    }
    if (c.tool_use) {
      this.tools.cases++;
      this.tools.answered += c.tool_use.answered;
      this.tools.triggered += c.tool_use.triggered;
      this.tools.valid += c.tool_use.valid;
    }
    for (const kind in c.error_kinds)
      this.errorKinds[kind] = (this.errorKinds[kind] ?? 0) + (c.error_kinds[kind as ErrorKind] ?? 0);
    const sketch = s.answered.latency_ms;
    if (sketch) for (const v of sketch.sample) this.latencies.add(v);
    // A report written before sketches were kept: its median stands for the case.
    else if (sketch === undefined && s.latency_ms) this.latencies.add(s.latency_ms.p50);
    this.time += (s.latency_ms?.p50 ?? 0) * Math.max(1, c.samples.sent);
    const ttft = c.streaming?.ttft_ms;
    if (ttft) for (const v of ttft.sample) this.ttfts.add(v);
    countNames(this.providers, c.providers);
    countNames(this.models, c.models);
    let suite = this.lastSuite?.suite === c.suite ? this.lastSuite : this.routing.get(c.suite);
    if (!suite) {
      suite = { suite: c.suite, model: c.requested_model, cases: 0, total: 0, message: '' };
      this.routing.set(c.suite, suite);
    }
    suite.total++;
    if (c.error?.kind === 'routing') {
      suite.cases++;
      suite.message ||= c.error.message;
    }
    this.lastSuite = suite;
  }

  /** A folded suite's own findings and its usage against the baseline, once its cases are in. */
  addSuite(suite: Pick<SuiteReport, 'drift' | 'usage'>): void {
    countFindings(this.counts, suite);
    const c = suite.usage.compared;
    if (!c) return;
    const t = (this.compared ??= { cases: 0, run: zeroTokens(), baseline: zeroTokens() });
    t.cases += c.cases;
    addTokens(t.run, c.run);
    addTokens(t.baseline, c.baseline);
  }

  /** The run's steps of conversations stopped part-way, once: their tokens and cost are spent too. */
  addUnjudged(unjudged: UnjudgedSteps): void {
    this.unjudged = { ...unjudged, tokens: { ...unjudged.tokens } };
    if (unjudged.cost !== null) this.cost = (this.cost ?? 0) + unjudged.cost;
    this.tokens.prompt += unjudged.tokens.prompt;
    this.tokens.completion += unjudged.tokens.completion;
    this.tokens.total += unjudged.tokens.total;
  }

  /** The totals so far, as a read-only copy. */
  result(): Totals {
    const { tools } = this;
    const latency = percentiles(this.latencies);
    const ttft = percentiles(this.ttfts);
    return deepFreeze({
      counts: { ...this.counts },
      review: { ...this.review },
      outcomes: { ...this.outcomes },
      rates: { ...this.rates },
      brief: this.brief,
      drift_kinds: new Map(this.driftKinds),
      samples: this.samples,
      tokens: { ...this.tokens },
      cost: this.cost,
      costed: this.costed,
      unjudged: this.unjudged && { ...this.unjudged },
      tools:
        tools.cases === 0
          ? null
          : {
              ...tools,
              trigger_rate: tools.answered === 0 ? 0 : tools.triggered / tools.answered,
              valid_rate: tools.triggered === 0 ? null : tools.valid / tools.triggered,
            },
      error_kinds: { ...this.errorKinds },
      latency_ms: latency,
      ttft_ms: ttft,
      time_ms: this.time,
      providers: served(this.providers),
      models: served(this.models),
      unrouted: [...this.routing.values()].filter((s) => s.cases > 0).map((s) => ({ ...s })),
      compared: this.compared && {
        cases: this.compared.cases,
        run: { ...this.compared.run },
        baseline: { ...this.compared.baseline },
      },
    });
  }
}

/** p50 and p95 of the values seen, and how many; null for none. */
function percentiles(values: ValueCounts): { p50: number; p95: number; samples: number } | null {
  return values.size
    ? { p50: values.nearestRank(0.5), p95: values.nearestRank(0.95), samples: values.size }
    : null;
}

/**
 * How many times each value was seen: nearest-rank percentiles exactly as over the list of
 * them (stats/nearest-rank.ts), held as one count per distinct value — latencies are whole
 * milliseconds, so a run of a million samples holds a few thousand.
 */
class ValueCounts {
  private readonly counts = new Map<number, number>();
  size = 0;

  add(value: number): void {
    this.counts.set(value, (this.counts.get(value) ?? 0) + 1);
    this.size++;
  }

  /** The value at nearest rank `q` (0..1); call only when size > 0. */
  nearestRank(q: number): number {
    const rank = Math.min(this.size - 1, Math.max(0, Math.ceil(q * this.size) - 1));
    const values = [...this.counts.keys()].sort((a, b) => a - b);
    let seen = 0;
    for (const v of values) {
      seen += this.counts.get(v)!;
      if (seen > rank) return v;
    }
    return values[values.length - 1]!;
  }
}

/** A case counts once for each name it lists. */
function countNames(counts: Map<string, number>, names: readonly string[]): void {
  const distinct = names.length === 1 ? names : new Set(names);
  for (const name of distinct) counts.set(name, (counts.get(name) ?? 0) + 1);
}

/** Each name and the cases it served, most first (ties by name). */
function served(counts: ReadonlyMap<string, number>): Served[] {
  return [...counts]
    .map(([name, cases]) => ({ name, cases }))
    .sort((a, b) => b.cases - a.cases || compareText(a.name, b.name));
}

function zeroTokens(): TokenTotals {
  return { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, cost: null };
}

function addTokens(to: TokenTotals, from: TokenTotals): void {
  to.prompt_tokens += from.prompt_tokens;
  to.completion_tokens += from.completion_tokens;
  to.total_tokens += from.total_tokens;
  if (from.cost !== null) to.cost = (to.cost ?? 0) + from.cost;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    if (!(value instanceof Map)) for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
