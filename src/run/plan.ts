import type { PlanOptions } from '../stored/journal/records.js';
import { type CasesOf, casesNotHeld } from '../suite/load.js';
import { UsageError } from '../util/errors.js';
import { ADAPTIVE_SAMPLING } from '../stats/adaptive.js';
import type { Suite, SuiteCase } from '../suite/types.js';
import type { CompletionRequest } from '../service/types.js';
import type { RequestParams } from '../core/messages.js';

/** One request to send: a case, one of its repeats, with the model and service it runs on. */
export interface PlannedCase {
  key: string;
  suite: Suite;
  case: SuiteCase;
  repeat: number;
  /** The model requested (the suite's, or the `--model` candidate). */
  model: string;
  /** The service name (the suite's, or `--service`). */
  service: string;
  /** What is sent besides the messages: the suite's params, with a `--providers` candidate's pin. */
  params: RequestParams;
  /** `repeat: auto`: more samples are planned while the run goes, only while the verdict is uncertain. */
  adaptive: boolean;
  /** The case's position in the unsharded plan (filter applied): shards merge back into this order. */
  ordinal: number;
}

/** What a planned sample asks the service: sent as is, and what its checks see as the request. */
export function plannedRequest(
  planned: Pick<PlannedCase, 'model' | 'case' | 'params'>,
): Pick<CompletionRequest, 'model' | 'messages' | 'params'> {
  return { model: planned.model, messages: planned.case.messages, params: planned.params };
}

/**
 * Stable identity of one sample; also the resume key in the journal. Built with join,
 * which makes one flat string: a template literal leaves a chain of concatenation
 * pieces behind, and every planned sample keeps its key for the whole run (a plan of
 * 100,000 samples: 21 → 12 MB).
 */
export function caseKey(suite: string, caseId: string, repeat: number): string {
  return [suite, '/', caseId, '#', repeat].join('');
}

/** One case of the plan with how many samples it gets now (`repeat: auto` starts at the first look). */
export interface PlannedCaseGroup {
  suite: Suite;
  case: SuiteCase;
  model: string;
  service: string;
  params: RequestParams;
  adaptive: boolean;
  ordinal: number;
  /** Samples planned now (an adaptive case may get more while the run goes). */
  repeats: number;
}

/**
 * The plan, one entry per case: what to send, in order. Pure: the same suites and options
 * always give the same plan, which is what lets `--resume` and `--shard` agree across
 * processes and machines. Its samples are generated as they are sent (planSamples), so a
 * case sampled 100 times costs one entry, not 100.
 */
export function planCases(suites: Suite[], options: PlanOptions = {}): PlannedCaseGroup[] {
  const paramsOf = paramsFor(options);
  return [...selectCases(suites, options)].map(({ suite, testCase, ordinal }) =>
    group(suite, testCase, ordinal, options, paramsOf),
  );
}

/** The suites the plan sends at least one case of (what a baseline warning is about). */
export async function suitesInPlan(
  suites: Suite[],
  options: PlanOptions = {},
  casesOf: CasesOf = heldCases,
): Promise<Suite[]> {
  return (await selectionOf(suites, options, casesOf)).map((s) => s.suite);
}

/** The cases the filter and the shard select, in plan order, with their ordinals. */
function* selectCases(
  suites: readonly Suite[],
  options: PlanOptions,
): Generator<{ suite: Suite; testCase: SuiteCase; ordinal: number }> {
  const select = selector(options);
  for (const suite of suites) {
    if (select.skips(suite)) continue;
    for (const testCase of suite.cases) {
      const ordinal = select.ordinal(suite, testCase);
      if (ordinal !== null) yield { suite, testCase, ordinal };
    }
  }
}

/**
 * What the filter and the shard select, one case at a time in plan order: the one rule
 * behind a plan of suites held in memory (selectCases) and one of suites read as the run
 * reaches them (planStream). Each case the filter lets through takes the next ordinal.
 */
function selector(options: PlanOptions, start = 0) {
  const match = options.filter ? globToRegExp(options.filter) : null;
  const only = options.cases ? new Set(options.cases) : null;
  const skipped = new Set(options.skip?.map((s) => s.suite));
  let next = start;
  return {
    /** A suite the candidate does not belong to takes no ordinal: shards share out the rest. */
    skips: (suite: Suite) => skipped.has(suite.suite),
    /** The case's ordinal when it is selected, else null. */
    ordinal(suite: Suite, testCase: Pick<SuiteCase, 'id'>): number | null {
      // A filter matches `suite/case`, the case id, or the suite's name (every case of it).
      if (
        match &&
        !match.test(`${suite.suite}/${testCase.id}`) &&
        !match.test(testCase.id) &&
        !match.test(suite.suite)
      )
        return null;
      if (only && !only.has(`${suite.suite}/${testCase.id}`)) return null;
      // Shard by case, not by sample: every repeat of a case lands in the same shard so its
      // pass rate is computed in one place. Round-robin over the stable order keeps shards
      // within one case of each other in size.
      const selected = next++;
      if (options.shard && selected % options.shard.total !== options.shard.index - 1) return null;
      return selected;
    },
    /** Skips `n` cases the filter would let through (a suite counted without reading it). */
    pass(n: number) {
      next += n;
    },
    /** The next case the filter lets through takes this ordinal (before the shard's choice). */
    get next() {
      return next;
    },
  };
}

/**
 * A suite's cases when the caller gave no way to read them again: those it holds. A suite
 * loaded without them would plan nothing and pass silently: refused, saying what to pass.
 */
export function heldCases(suite: Suite): readonly SuiteCase[] {
  if (casesNotHeld(suite))
    throw new TypeError(
      `suite ${suite.suite} was loaded without its cases (loadSuites cases: 'none'): pass a casesOf that reads them (readSuiteCases)`,
    );
  return suite.cases;
}

/** What the plan holds of one suite before it is reached: how many of its cases and samples are selected. */
export interface SuiteSelection {
  suite: Suite;
  /** Where its cases' ordinals start (planStream's `start`). */
  start: number;
  cases: number;
  /** Samples planned now (`repeat: auto` cases count their first look). */
  samples: number;
}

/**
 * The plan of suites that may not be in memory: their selected cases, read as they are
 * asked for, in plan order — the same cases and ordinals as planCases. `start` is the
 * first suite's (a suite planned on its own: its SuiteSelection's).
 */
export async function* planStream(
  suites: readonly Suite[],
  options: PlanOptions,
  casesOf: CasesOf,
  start = 0,
): AsyncGenerator<PlannedCaseGroup> {
  const select = selector(options, start);
  const paramsOf = paramsFor(options);
  for (const suite of suites) {
    if (select.skips(suite)) continue;
    for await (const testCase of casesOf(suite)) {
      const ordinal = select.ordinal(suite, testCase);
      if (ordinal !== null) yield group(suite, testCase, ordinal, options, paramsOf);
    }
  }
}

/**
 * One suite's selected cases from cases in memory, without a wait between them: planStream
 * for a suite whose cases are held (a run reads a small one once and keeps it while it runs).
 */
export function* planHeldSuite(
  suite: Suite,
  cases: Iterable<SuiteCase>,
  options: PlanOptions,
  start: number,
): Generator<PlannedCaseGroup> {
  const select = selector(options, start);
  const paramsOf = paramsFor(options);
  for (const testCase of cases) {
    const ordinal = select.ordinal(suite, testCase);
    if (ordinal !== null) yield group(suite, testCase, ordinal, options, paramsOf);
  }
}

/**
 * How many cases and samples of each suite the plan selects, in plan order (suites with
 * none left out). A suite not in memory is read once for it only when a filter or a shard
 * must see its ids; otherwise its counts say it.
 */
export async function selectionOf(
  suites: readonly Suite[],
  options: PlanOptions,
  casesOf: CasesOf,
): Promise<SuiteSelection[]> {
  const [selection] = await selectionsOf(suites, [options], casesOf);
  return selection!;
}

/**
 * selectionOf for several plans at once (a comparison's candidates, each with the suites it
 * skips): a suite that must be read is read once for every plan that needs its ids.
 */
export async function selectionsOf(
  suites: readonly Suite[],
  plans: readonly PlanOptions[],
  casesOf: CasesOf,
): Promise<SuiteSelection[][]> {
  const selects = plans.map((options) => selector(options));
  const out = plans.map((): SuiteSelection[] => []);
  for (const suite of suites) {
    const counts = casesNotHeld(suite) ? suite.counts : undefined;
    const reading: (SuiteSelection & { plan: number })[] = [];
    plans.forEach((options, plan) => {
      const select = selects[plan]!;
      if (select.skips(suite)) return;
      const start = select.next;
      if (
        counts &&
        !options.filter &&
        !options.cases &&
        !options.shard &&
        options.repeat !== 'auto' &&
        counts.samples !== null
      ) {
        select.pass(counts.cases);
        const samples = typeof options.repeat === 'number' ? counts.cases * options.repeat : counts.samples;
        if (counts.cases > 0) out[plan]!.push({ suite, start, cases: counts.cases, samples });
      } else reading.push({ plan, suite, start, cases: 0, samples: 0 });
    });
    if (reading.length === 0) continue;
    for await (const testCase of casesOf(suite)) {
      for (const r of reading) {
        if (selects[r.plan]!.ordinal(suite, testCase) === null) continue;
        r.cases++;
        const wanted = plannedRepeat(suite, testCase, plans[r.plan]!);
        r.samples += wanted === 'auto' ? ADAPTIVE_SAMPLING.min : wanted;
      }
    }
    for (const { plan, ...selected } of reading) if (selected.cases > 0) out[plan]!.push(selected);
  }
  return out;
}

/**
 * One params object per suite, shared by its cases and samples; a case with params of its
 * own sends those. `--providers` pins the provider, `--stream` asks for a stream.
 */
function paramsFor(options: PlanOptions) {
  const params = new Map<Suite, RequestParams>();
  const streamed = (p: RequestParams) => (options.stream ? { ...p, stream: true } : p);
  const pinned = (p: RequestParams) => streamed(options.provider ? withProviderPin(p, options.provider) : p);
  return (suite: Suite, testCase: SuiteCase) => {
    if (testCase.params) return pinned(testCase.params);
    let p = params.get(suite);
    if (!p) params.set(suite, (p = pinned(suite.params)));
    return p;
  };
}

/** One case of the plan, as planCases and planStream make it. */
function group(
  suite: Suite,
  testCase: SuiteCase,
  ordinal: number,
  options: PlanOptions,
  paramsOf: (suite: Suite, testCase: SuiteCase) => RequestParams,
): PlannedCaseGroup {
  const wanted = plannedRepeat(suite, testCase, options);
  const adaptive = wanted === 'auto';
  return {
    suite,
    case: testCase,
    model: options.model ?? suite.model,
    service: options.service ?? suite.service,
    params: paramsOf(suite, testCase),
    adaptive,
    ordinal,
    repeats: adaptive ? ADAPTIVE_SAMPLING.min : wanted,
  };
}

/** The planned samples of these cases, in plan order, made one at a time as they are asked for. */
export function* planSamples(cases: Iterable<PlannedCaseGroup>): Generator<PlannedCase> {
  for (const c of cases) {
    for (let repeat = 0; repeat < c.repeats; repeat++)
      yield plannedSample(c.suite, c.case, repeat, c, c.adaptive, c.ordinal);
  }
}

/** Every planned sample, as a list: the plan of a small run, and of tests. */
export function planRun(suites: Suite[], options: PlanOptions = {}): PlannedCase[] {
  return [...planSamples(planCases(suites, options))];
}

/** How many samples a case is planned for: `--repeat`, else the case's, else the suite's, else 1. */
function plannedRepeat(suite: Suite, testCase: SuiteCase, options: PlanOptions): number | 'auto' {
  return options.repeat ?? testCase.repeat ?? suite.repeat ?? 1;
}

/** One sample of a case, sent as `target` says; also how the runner adds samples to an adaptive case. */
export function plannedSample(
  suite: Suite,
  testCase: SuiteCase,
  repeat: number,
  target: Pick<PlannedCase, 'model' | 'service' | 'params'>,
  adaptive: boolean,
  ordinal: number,
): PlannedCase {
  return {
    ordinal,
    key: caseKey(suite.suite, testCase.id, repeat),
    suite,
    case: testCase,
    repeat,
    model: target.model,
    service: target.service,
    params: target.params,
    adaptive,
  };
}

/**
 * A suite's params pinned to one router provider, as `--providers` runs it: the router's
 * documented `only` with no fallbacks, so the answer comes from that provider or not at all
 * (the router's 503 when it cannot serve the model). It replaces the suite's own provider
 * preferences: the candidate is the provider.
 */
function withProviderPin(params: RequestParams, provider: string): RequestParams {
  return { ...params, provider: { only: [provider], allow_fallbacks: false } };
}

/** `--shard I/N` → `{ index, total }`, 1 ≤ I ≤ N. */
export function parseShard(text: string): { index: number; total: number } {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(m?.[1]);
  const total = Number(m?.[2]);
  if (!m || total < 1 || index < 1 || index > total) {
    throw new UsageError(`--shard expects I/N with 1 ≤ I ≤ N (for example 2/4), got '${text}'`);
  }
  return { index, total };
}

/** `*` matches within a path segment, `**` across segments, `?` one character. */
function globToRegExp(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]!;
    if (ch === '*' && glob[i + 1] === '*') {
      source += '.*';
      i++;
    } else if (ch === '*') source += '[^/]*';
    else if (ch === '?') source += '[^/]';
    else source += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/**
 * emptySelection for suites that may not hold their cases: when a shard drew nothing, the
 * selection without it is counted (each suite read for a filter's ids) to tell an empty
 * shard of a small suite from a filter that matches nothing.
 */
export async function emptySelectionOf(
  suites: readonly Suite[],
  plan: Pick<PlanOptions, 'filter' | 'shard' | 'skip' | 'cases'>,
  casesOf: CasesOf,
): Promise<string | null> {
  const { filter, skip, cases } = plan;
  const unsharded = plan.shard
    ? (
        await selectionOf(
          suites,
          { ...(filter ? { filter } : {}), ...(skip ? { skip } : {}), ...(cases ? { cases } : {}) },
          casesOf,
        )
      ).length > 0
    : false;
  return emptySelection(suites, plan, unsharded);
}

/**
 * Why an empty plan is not worth running (exit 2), and what to do about it; or null when
 * it is a shard that drew no case of a selection that has some (a suite with fewer cases
 * than shards): that shard runs, empty, so that `merge` finds every shard of the run.
 */
function emptySelection(
  suites: readonly Suite[],
  plan: Pick<PlanOptions, 'filter' | 'shard' | 'skip' | 'cases'>,
  /** Whether the selection without the shard has a case. */
  unshardedSelects: boolean,
): string | null {
  const total = suites.reduce((n, s) => n + (s.counts?.cases ?? s.cases.length), 0);
  if (total === 0)
    return 'nothing to run: the suites have no cases\n  → add cases, or point run at the folder that has them';
  if (plan.shard && unshardedSelects) return null;
  const names = suites.map((s) => s.suite);
  const shown = `${names.slice(0, 5).join(', ')}${names.length > 5 ? ', …' : ''}`;
  if (plan.cases)
    return `nothing to run: none of the ${plan.cases.length} case(s) --failed selected (${plan.cases.slice(0, 3).join(', ')}${plan.cases.length > 3 ? ', …' : ''}) is in the suites${plan.filter ? ` and matches --filter '${plan.filter}'` : ''} (suites: ${shown})\n  → give the suites that run ran (paths after the flags), or run them again without --failed`;
  return `nothing to run: --filter '${plan.filter}' matches no case of ${total} (it is matched against suite/case, the case id and the suite name; suites: ${shown})\n  → check the pattern: * stays within a segment, ** crosses them`;
}
