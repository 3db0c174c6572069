/**
 * The history's line format (JSON Lines, one object a line), kept compact so that a year
 * of nightly runs of 1,000 cases stays well under 50 MB:
 *
 * - run: `{"t":"run","v":1,"id","start","end","exit","status","git"?,"prov"?,"suites":[{"suite","models","providers","baseline"}]}`;
 *   `prov`, only for a run that was not a nightly, complete run of the real services:
 *   `{"candidate"?:model,"sim"?:true,"shard"?:[index,total],"partial"?:true,"forced"?:true}`
 * - case (no `t`), right after its run's line (a run is appended in one write, so they stay
 *   together): `{"s":suite,"c":case,"st"?:status,"n":samples,"k":passes,"ek"?:error kinds,
 *   "dk"?:drift kinds,"m"?:model,"pv"?:provider,"tk"?:[prompt,completion(,total)],"usd"?:cost,
 *   "ms"?:[latency p50,p95],"tu"?:[answered,triggered,valid],"sp"?:[steps,within],"tj"?:digest,"tt"?:ttft p50}`. Status is `p` pass · `f` fail · `e` error · `n` not run;
 *   left out when it is the implied one (pass when every sample passed, else fail).
 *   `m`/`pv` are left out when they equal the suite's only model/provider in the run line
 *   (absent means that one, or none; `null` means none despite it); total tokens only when not prompt + completion.
 *   `tu`, tool-call counts (HistoryToolCounts), only for a case with tools: a history of
 *   tool-less suites is as large as before. `sp`: [steps, within max_steps] and `tj`: the
 *   trajectory's digest (HistoryLoop), only for a conversation (a tool loop, scripted turns).
 *   `tt`: the median time to first token (ms), only for a streamed case.
 * - `{"t":"baseline_accepted","v":1,"suite","source_run","at"}`
 *
 * Versioning: every reader ignores keys it does not know and reads a missing optional key
 * as "none", so a key added to a line (as `tu`, `sp`, `tj` and `tt` were) keeps FORMAT_VERSION: an older
 * driftcheck reads a newer line without it, and lines written before it read as cases
 * without tools. The version changes only when an existing key changes meaning or a
 * required key is added; a reader then skips the lines of a version it does not know.
 */
import type {
  BaselineAcceptedInput,
  HistoryProvenance,
  HistoryCaseInput,
  HistoryCaseStatus,
  HistoryRunInput,
  HistorySuiteInput,
  HistoryLoop,
  HistoryToolCounts,
} from './types.js';

const FORMAT_VERSION = 1;

/** The lines of one run: its record, then one line per case. */
export function encodeRun(run: HistoryRunInput, cases: readonly HistoryCaseInput[]): string {
  const line = caseLine(run);
  return `${[runLine(run), ...cases.map(line)].join('\n')}\n`;
}

/** encodeRun of cases read one at a time (each encoded as it comes, none held). */
export async function encodeRunOf(
  run: HistoryRunInput,
  cases: AsyncIterable<HistoryCaseInput>,
): Promise<string> {
  const line = caseLine(run);
  const lines = [runLine(run)];
  for await (const c of cases) lines.push(line(c));
  return `${lines.join('\n')}\n`;
}

/** A case's line of this run (its suite's only model and provider left out). */
function caseLine(run: HistoryRunInput): (c: HistoryCaseInput) => string {
  const only = soleValues(run.suites);
  return (c) => JSON.stringify(encodeCase(c, only.get(c.suite)));
}

function runLine(run: HistoryRunInput): string {
  const head = {
    t: 'run',
    v: FORMAT_VERSION,
    id: run.run_id,
    start: run.started_at,
    end: run.finished_at,
    exit: run.exit_code,
    status: run.status,
    ...(run.git ? { git: run.git } : {}),
    ...(run.provenance ? { prov: encodeProvenance(run.provenance) } : {}),
    suites: run.suites.map((s) => ({
      suite: s.suite,
      models: s.models,
      providers: s.providers,
      baseline: s.baseline_source_run,
    })),
  };
  return JSON.stringify(head);
}

function encodeProvenance(p: HistoryProvenance): Record<string, unknown> {
  return {
    ...(p.candidate ? { candidate: p.candidate } : {}),
    ...(p.sim ? { sim: true } : {}),
    ...(p.shard ? { shard: [p.shard.index, p.shard.total] } : {}),
    ...(p.partial ? { partial: true } : {}),
    ...(p.forced ? { forced: true } : {}),
  };
}

/** A run line's `prov`, read leniently: unknown or malformed fields are left out. */
function decodeProvenance(v: unknown): HistoryProvenance | undefined {
  if (!isObject(v)) return undefined;
  const shard =
    Array.isArray(v.shard) && v.shard.length === 2 && v.shard.every(count)
      ? { index: v.shard[0] as number, total: v.shard[1] as number }
      : null;
  return {
    candidate: str(v.candidate) ? v.candidate : null,
    sim: v.sim === true,
    shard,
    partial: v.partial === true,
    forced: v.forced === true,
  };
}

export function encodeBaselineAccepted(event: BaselineAcceptedInput): string {
  return `${JSON.stringify({ t: 'baseline_accepted', v: FORMAT_VERSION, ...event })}\n`;
}

type Sole = { model: string | null; provider: string | null };

function soleValues(suites: readonly HistorySuiteInput[]): Map<string, Sole> {
  const out = new Map<string, Sole>();
  for (const s of suites) {
    out.set(s.suite, {
      model: s.models.length === 1 ? s.models[0]! : null,
      provider: s.providers.length === 1 ? s.providers[0]! : null,
    });
  }
  return out;
}

function encodeCase(c: HistoryCaseInput, sole: Sole | undefined): Record<string, unknown> {
  const line: Record<string, unknown> = {
    s: c.suite,
    c: c.case,
    n: c.samples,
    k: c.passes,
  };
  if (c.status !== impliedStatus(c.samples, c.passes)) line.st = STATUS_CODES[c.status];
  if (c.error_kinds.length > 0) line.ek = c.error_kinds;
  if (c.drift_kinds.length > 0) line.dk = c.drift_kinds;
  // null is written only when the run line names a sole value that would otherwise fill in.
  if (c.model !== (sole?.model ?? null)) line.m = c.model;
  if (c.provider !== (sole?.provider ?? null)) line.pv = c.provider;
  if (c.tokens) {
    const { prompt, completion, total } = c.tokens;
    line.tk = total === prompt + completion ? [prompt, completion] : [prompt, completion, total];
  }
  if (c.cost !== null) line.usd = round(c.cost, 8);
  if (c.latency_p50_ms !== null || c.latency_p95_ms !== null) line.ms = [c.latency_p50_ms, c.latency_p95_ms];
  if (c.tools) line.tu = [c.tools.answered, c.tools.triggered, c.tools.valid];
  if (c.loop) {
    line.sp = [c.loop.steps, c.loop.within];
    line.tj = c.loop.trajectory;
  }
  if (c.ttft_p50_ms != null) line.tt = c.ttft_p50_ms;
  return line;
}

const round = (x: number, digits: number): number => Number(x.toFixed(digits));

/** What one line decodes to: a record, or why it was skipped. */
export type DecodedLine =
  | { kind: 'run'; run: HistoryRunInput }
  | { kind: 'case'; entry: (sole: (suite: string) => Sole | undefined) => HistoryCaseInput }
  | { kind: 'baseline_accepted'; event: BaselineAcceptedInput }
  | { kind: 'skip'; reason: string };

/** The status a case line leaves out: pass when every sample passed, else fail. */
const impliedStatus = (samples: number, passes: number): HistoryCaseStatus =>
  samples > 0 && passes === samples ? 'pass' : 'fail';

const STATUS_CODES: Record<HistoryCaseStatus, string> = { pass: 'p', fail: 'f', error: 'e', not_run: 'n' };
const STATUSES = new Map(
  Object.entries(STATUS_CODES).map(([status, code]) => [code, status as HistoryCaseStatus]),
);

/** Decodes one line; never throws. A case line is resolved against its run's suites later. */
export function decodeLine(text: string): DecodedLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'skip', reason: 'not JSON (a torn or hand-edited line?)' };
  }
  if (!isObject(value)) return { kind: 'skip', reason: 'not a JSON object' };
  if (value.t === undefined && 's' in value && 'c' in value) return decodeCase(value);
  if (value.t !== 'run' && value.t !== 'baseline_accepted')
    return { kind: 'skip', reason: `unknown record type ${JSON.stringify(value.t ?? null)}` };
  if (value.v !== FORMAT_VERSION)
    return {
      kind: 'skip',
      reason: `format version ${String(value.v)} (this driftcheck reads ${FORMAT_VERSION})`,
    };
  return value.t === 'run' ? decodeRun(value) : decodeBaseline(value);
}

function decodeRun(v: Record<string, unknown>): DecodedLine {
  if (!str(v.id) || !str(v.start) || !str(v.end) || typeof v.exit !== 'number' || !str(v.status))
    return { kind: 'skip', reason: 'run record without id, start, end, exit or status' };
  if (!Array.isArray(v.suites)) return { kind: 'skip', reason: 'run record without suites' };
  const suites: HistorySuiteInput[] = [];
  for (const s of v.suites) {
    if (!isObject(s) || !str(s.suite)) return { kind: 'skip', reason: 'run record with a malformed suite' };
    suites.push({
      suite: s.suite,
      models: strings(s.models),
      providers: strings(s.providers),
      baseline_source_run: str(s.baseline) ? s.baseline : null,
    });
  }
  const provenance = decodeProvenance(v.prov);
  const git = isObject(v.git)
    ? { commit: str(v.git.commit) ? v.git.commit : null, branch: str(v.git.branch) ? v.git.branch : null }
    : undefined;
  const run: HistoryRunInput = {
    run_id: v.id,
    started_at: v.start,
    finished_at: v.end,
    exit_code: v.exit,
    status: v.status,
    suites,
    ...(git ? { git } : {}),
    ...(provenance ? { provenance } : {}),
  };
  return { kind: 'run', run };
}

function decodeBaseline(v: Record<string, unknown>): DecodedLine {
  if (!str(v.suite) || !str(v.source_run) || !str(v.at))
    return { kind: 'skip', reason: 'baseline_accepted without suite, source_run or at' };
  return { kind: 'baseline_accepted', event: { suite: v.suite, source_run: v.source_run, at: v.at } };
}

function decodeCase(v: Record<string, unknown>): DecodedLine {
  if (!str(v.s) || !str(v.c) || !count(v.n) || !count(v.k) || v.k > v.n)
    return { kind: 'skip', reason: 'case line without suite, case or sample counts' };
  const status = v.st === undefined ? impliedStatus(v.n, v.k) : STATUSES.get(String(v.st));
  if (!status) return { kind: 'skip', reason: `case line with an unknown status ${JSON.stringify(v.st)}` };
  const tk = numbers(v.tk);
  const ms =
    Array.isArray(v.ms) && v.ms.length === 2 ? v.ms.map((x) => (typeof x === 'number' ? x : null)) : null;
  const [suite, name, samples, passes] = [v.s, v.c, v.n, v.k];
  // Only a conversation's line has one: any other decodes as it did before `sp` and `tj`.
  const loop = loopOf(v.sp, v.tj, samples);
  // Only a streamed case's line has one, a time no shorter than zero.
  const ttft = typeof v.tt === 'number' && Number.isFinite(v.tt) && v.tt >= 0 ? v.tt : null;
  return {
    kind: 'case',
    entry: (sole) => ({
      suite,
      case: name,
      status,
      samples,
      passes,
      error_kinds: strings(v.ek),
      drift_kinds: strings(v.dk),
      model: 'm' in v ? (str(v.m) ? v.m : null) : (sole(suite)?.model ?? null),
      provider: 'pv' in v ? (str(v.pv) ? v.pv : null) : (sole(suite)?.provider ?? null),
      tokens: tk ? { prompt: tk[0]!, completion: tk[1]!, total: tk[2] ?? tk[0]! + tk[1]! } : null,
      cost: typeof v.usd === 'number' ? v.usd : null,
      latency_p50_ms: ms?.[0] ?? null,
      latency_p95_ms: ms?.[1] ?? null,
      tools: toolCounts(v.tu, samples),
      ...(loop ? { loop } : {}),
      ...(ttft !== null ? { ttft_p50_ms: ttft } : {}),
    }),
  };
}

/**
 * A case line's `sp` and `tj`, read leniently as `tu` is: absent (a line written before
 * them, or a case of single requests) or inconsistent counts read as no conversation.
 */
function loopOf(sp: unknown, tj: unknown, samples: number): HistoryLoop | null {
  if (!Array.isArray(sp) || sp.length !== 2 || !sp.every(count) || !str(tj)) return null;
  const [steps, within] = sp as [number, number];
  if (within > samples || steps < within) return null;
  return { steps, within, trajectory: tj };
}

/**
 * A case line's `tu`, read leniently as the other optional keys are: absent (a line written
 * before tool counts, or a case without tools) or inconsistent counts read as no tools.
 */
function toolCounts(v: unknown, samples: number): HistoryToolCounts | null {
  if (!Array.isArray(v) || v.length !== 3 || !v.every(count)) return null;
  const [answered, triggered, valid] = v as [number, number, number];
  if (answered > samples || triggered > answered || valid > triggered) return null;
  return { answered, triggered, valid };
}

/** The sole model/provider per suite of a decoded run, for case lines that left them out. */
export function soleOf(run: HistoryRunInput): (suite: string) => Sole | undefined {
  const map = soleValues(run.suites);
  return (suite) => map.get(suite);
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
/** A count: a whole number from 0 to 2³¹ − 1 (what a night's columns hold; more samples than that is no real night). */
const count = (v: unknown): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 0x7fffffff;
const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
function numbers(v: unknown): number[] | null {
  const ok = Array.isArray(v) && (v.length === 2 || v.length === 3) && v.every((x) => typeof x === 'number');
  return ok ? (v as number[]) : null;
}
