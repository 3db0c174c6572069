import { contentDrift } from '../fold/drift/answer.js';
import { type VerdictCase, VerdictPairs, verdictsOf, type CandidateVerdict } from './verdict.js';
import { CHANGES, type Change, statusChange } from '../core/words.js';
import { IdTable } from '../util/id-table.js';
import { publishReport } from '../fold/published.js';
import type { CaseEntry, ReportHead } from '../stored/report/types.js';
import type { Trajectory } from '../record/fields/trajectory.js';
import { ComparedSide, type KeptCase, verdictCaseOf } from './side.js';
import { summarizeCandidate, markFrontier } from './summary.js';
import {
  type CandidateCell,
  type CandidateNotRun,
  type CaseRow,
  COMPARE_SCHEMA_VERSION,
  type Comparison,
  type ComparedReference,
  type PairedVerdict,
  type ReferenceCell,
  type SkippedSuiteNote,
} from './types.js';

/** A candidate as a comparison takes it: the column's name and its run, read (ComparedSide). */
export interface ComparedRun {
  label: string;
  side: ComparedSide;
}

/**
 * What the candidates are compared with. `baseline`: the baseline each candidate's run was
 * diffed against when it was folded (its drift already says what regressed, with the
 * suite's own tolerances), whose cases the paired verdicts read by id; `run`: another run,
 * case by case.
 */
export type Reference =
  | {
      kind: 'baseline';
      /** A baseline case as the paired verdict reads it (verdictCaseOfBaseline), or null when there is none. */
      verdictCase: (suite: string, caseId: string) => Promise<VerdictCase | null> | VerdictCase | null;
      /** A baseline case's trajectory, asked for a conversation's row only; absent: not known. */
      trajectory?: (suite: string, caseId: string) => Promise<Trajectory | null> | Trajectory | null;
    }
  | ({ kind: 'run' } & ComparedRun);

/** compare.json without its rows: what every view shows above the cases. */
export type ComparisonHead = Omit<Comparison, 'cases'>;

/**
 * What the views that list only some cases read (the console's table, compare.md): the
 * head, how many rows, and the first rows worth a look — never every row.
 */
export interface ComparisonView {
  head: ComparisonHead;
  /** How many rows (cases) the comparison has. */
  cases: number;
  /** The first NOTABLE_ROWS rows with a cell worth a look (notable), and how many there are. */
  notable: { rows: CaseRow[]; count: number };
  /** Per candidate: its first LISTED_REGRESSIONS regressed rows, and how many it has. */
  regressed: { rows: CaseRow[]; count: number }[];
}

/** Rows the console's table may show. */
const NOTABLE_ROWS = 40;
/** Regressed rows compare.md lists per candidate. */
export const LISTED_REGRESSIONS = 10;

/**
 * The candidates side by side against the reference: one row per case (in plan order, the
 * reference's cases first), one cell per candidate, and per candidate its totals and its
 * paired verdict. Every count any view shows is made here, once. The rows are made one at a
 * time (`rows`, read once) from the runs' kept cases; `head` and `view` are known after the
 * last row.
 */
export class ComparisonRows {
  /** Every case id of the runs, reference first: a row's slot. */
  private readonly union = new IdTable();
  private readonly suiteOf: string[] = [];
  /** Case names that are not their id after the suite's (ComparedSide.oddCase), by row. */
  private readonly oddCases = new Map<number, string>();
  /** Per run (reference run first when there is one): the run's own slot of each row, -1 when it lacks the case. */
  private readonly own: Int32Array[];
  private readonly sides: ComparedSide[];
  private readonly changes: Record<Change, number>[];
  private readonly pairs: VerdictPairs[];
  private readonly notable: { rows: CaseRow[]; count: number } = { rows: [], count: 0 };
  private readonly regressed: { rows: CaseRow[]; count: number }[];
  private done = false;

  constructor(
    private readonly reference: Reference,
    private readonly candidates: readonly ComparedRun[],
    /** Candidates of the command whose runs were not made: named, never compared. */
    private readonly notRun: readonly CandidateNotRun[] = [],
  ) {
    this.sides = [...(reference.kind === 'run' ? [reference.side] : []), ...candidates.map((c) => c.side)];
    for (const side of this.sides)
      for (let slot = 0; slot < side.size; slot++) {
        const known = this.union.size;
        if (this.union.add(side.ids.at(slot)) !== known) continue;
        this.suiteOf.push(side.suiteAt(slot));
        const odd = side.oddCase(slot);
        if (odd !== undefined) this.oddCases.set(known, odd);
      }
    this.own = this.sides.map((side) => {
      const own = new Int32Array(this.union.size);
      for (let row = 0; row < own.length; row++) own[row] = side.ids.slotOf(this.union.at(row));
      return own;
    });
    this.changes = candidates.map(
      () => Object.fromEntries(CHANGES.map((c) => [c, 0])) as Record<Change, number>,
    );
    this.pairs = candidates.map(() => new VerdictPairs());
    this.regressed = candidates.map(() => ({ rows: [], count: 0 }));
  }

  /** How many rows. */
  get size(): number {
    return this.union.size;
  }

  /** How many candidates (cells per row). */
  get candidateCount(): number {
    return this.candidates.length;
  }

  /** Each row, in order, made as it is asked for; once. */
  async *rows(): AsyncGenerator<CaseRow> {
    if (this.done) throw new Error('ComparisonRows.rows: the rows were already read');
    const readers = this.sides.map((side, i) => side.read(present(this.own[i]!)));
    const byRun = this.reference.kind === 'run';
    const skips = this.candidates.map(
      (c) => new Set((c.side.head?.run.skipped_suites ?? []).map((s) => s.suite)),
    );
    for (let row = 0; row < this.union.size; row++) {
      const id = this.union.at(row);
      const suite = this.suiteOf[row]!;
      const kept: (KeptCase | undefined)[] = [];
      for (let i = 0; i < this.sides.length; i++)
        kept.push(this.own[i]![row]! >= 0 ? ((await readers[i]!.next()).value ?? undefined) : undefined);
      const ref = byRun ? kept.shift() : undefined;
      const cells = kept.map((e, i) =>
        e ? cellOf(e, byRun ? againstRun(ref, e) : e) : absent(skips[i]!.has(suite)),
      );
      const caseId = this.oddCases.get(row) ?? id.slice(suite.length + 1);
      const reference = byRun ? runReference(ref) : baselineReference(kept, cells);
      // A conversation's row: the baseline's trajectory beside the candidates'.
      if (!byRun && cells.some((c) => c.trajectory)) {
        const ask = (this.reference as Extract<Reference, { kind: 'baseline' }>).trajectory;
        const trajectory = ask ? await ask(suite, caseId) : null;
        if (trajectory) reference.trajectory = trajectory;
      }
      const out: CaseRow = { id, suite, case: caseId, reference, cells };
      const refCase = byRun
        ? ref && verdictCaseOf(id, ref)
        : await (this.reference as Extract<Reference, { kind: 'baseline' }>).verdictCase(suite, caseId);
      kept.forEach((e, i) => {
        this.changes[i]![cells[i]!.change]++;
        const candidate = e && verdictCaseOf(id, e);
        if (refCase && candidate) this.pairs[i]!.add(refCase, candidate);
        if (cells[i]!.change === 'regressed') keep(this.regressed[i]!, out, LISTED_REGRESSIONS);
      });
      if (cells.some(notable)) keep(this.notable, out, NOTABLE_ROWS);
      yield out;
    }
    this.done = true;
  }

  /** compare.json's head: the reference, the candidates' totals and verdicts, the suites skipped. */
  head(): ComparisonHead {
    if (!this.done) throw new Error('ComparisonRows.head: read the rows first');
    const summaries = this.candidates.map((c, i) => summarizeCandidate(c, this.changes[i]!));
    markFrontier(summaries);
    const verdicts = verdictsOf(this.candidates.map((c, i) => ({ label: c.label, pairs: this.pairs[i]! })));
    return {
      schema_version: COMPARE_SCHEMA_VERSION,
      reference: referenceOf(this.reference),
      candidates: summaries.map((summary, i) => ({ ...summary, verdict: pairedVerdict(verdicts[i]!) })),
      skipped_suites: skippedNotes(this.candidates),
      candidates_not_run: [...this.notRun],
    };
  }

  /** What the console's table and compare.md read (after the rows). */
  view(): ComparisonView {
    return { head: this.head(), cases: this.size, notable: this.notable, regressed: this.regressed };
  }
}

function keep(list: { rows: CaseRow[]; count: number }, row: CaseRow, max: number): void {
  if (list.count++ < max) list.rows.push(row);
}

/** The run's own slots of the rows it has, in row order: the keys its kept cases are read by. */
function* present(own: Int32Array): Generator<number> {
  for (const slot of own) if (slot >= 0) yield slot;
}

/** A cell worth a row of the console's table: anything but a pass that did not move (or a suite it skipped). */
function notable(c: CandidateCell): boolean {
  if (c.status === null) return false;
  return c.status !== 'pass' || c.change === 'regressed' || c.change === 'fixed' || c.change === 'changed';
}

/** A run in memory (a test's, a library caller's): its head and its entries. */
export interface FoldedRun {
  readonly dir: string | null;
  readonly head: Readonly<ReportHead>;
  readonly cases: readonly Readonly<CaseEntry>[];
}

/** A candidate in memory: its column's name and its run. */
export interface InMemoryRun {
  label: string;
  run: FoldedRun;
}

/** A run in memory as a comparison reads it, with its totals as the fold publishes them. */
function sideOf(run: FoldedRun): ComparedSide {
  const side = new ComparedSide(run.dir);
  const published = publishReport({ ...run.head, cases: run.cases as CaseEntry[] });
  for (const c of published.cases) side.add(c);
  side.head = run.head as ReportHead;
  side.totals = published.totals;
  return side;
}

/**
 * compareRuns for runs in memory, the whole comparison as one object (rows and all): for
 * tests and small callers; the commands stream theirs (writeComparison).
 */
export async function compareRuns(
  reference:
    { kind: 'baseline'; cases: readonly VerdictCase[] } | { kind: 'run'; label: string; run: FoldedRun },
  candidates: readonly InMemoryRun[],
): Promise<Comparison> {
  const byId = reference.kind === 'baseline' ? new Map(reference.cases.map((c) => [c.id, c])) : null;
  const rows = new ComparisonRows(
    reference.kind === 'run'
      ? { kind: 'run', label: reference.label, side: sideOf(reference.run) }
      : { kind: 'baseline', verdictCase: (suite, caseId) => byId!.get(`${suite}/${caseId}`) ?? null },
    candidates.map((c) => ({ label: c.label, side: sideOf(c.run) })),
  );
  const cases: CaseRow[] = [];
  for await (const row of rows.rows()) cases.push(row);
  const { skipped_suites, candidates_not_run, ...head } = rows.head();
  return { ...head, cases, skipped_suites, candidates_not_run };
}

/** The view of a comparison in memory (the console's table and compare.md read one). */
export function viewOf(comparison: Comparison): ComparisonView {
  const { cases, ...head } = comparison;
  const listed = (rows: CaseRow[], max: number) => ({ rows: rows.slice(0, max), count: rows.length });
  return {
    head,
    cases: cases.length,
    notable: listed(
      cases.filter((row) => row.cells.some(notable)),
      NOTABLE_ROWS,
    ),
    regressed: head.candidates.map((_, i) =>
      listed(
        cases.filter((row) => row.cells[i]!.change === 'regressed'),
        LISTED_REGRESSIONS,
      ),
    ),
  };
}

function pairedVerdict({ label: _label, test, ...verdict }: CandidateVerdict): PairedVerdict {
  const { method, cases, regressions, fixes } = test;
  return { method, cases, regressions, fixes, ...verdict };
}

function referenceOf(reference: Reference): ComparedReference {
  if (reference.kind === 'baseline') return { kind: 'baseline', label: 'baseline', run_id: null, dir: null };
  return {
    kind: 'run',
    label: reference.label,
    run_id: reference.side.head?.run.id ?? null,
    dir: reference.side.dir,
  };
}

interface Verdict {
  change: Change;
  similarity: number | null;
}

/**
 * Against another run, case by case: the verdicts decide regressed and fixed (statusChange,
 * the words module's one rule); with the same verdict, another answer (by the default content rules) or another error is a change.
 */
function againstRun(ref: KeptCase | undefined, e: KeptCase): Verdict {
  if (e.status === 'not_run') return { change: 'not_run', similarity: null };
  if (!ref || ref.status === 'not_run') return { change: 'new', similarity: null };
  const content = contentDrift(ref.content, e.content)[0];
  const similarity = content?.similarity ?? null;
  const verdict = statusChange(ref.status, e.status);
  if (verdict) return { change: verdict, similarity };
  if (content || ref.error_kind !== e.error_kind || ref.status !== e.status)
    return { change: 'changed', similarity };
  return { change: 'same', similarity: null };
}

function cellOf(e: KeptCase, verdict: Verdict): CandidateCell {
  return {
    change: verdict.change,
    status: e.status,
    samples: { passed: e.passed, sent: e.sent },
    error_kind: e.error_kind,
    similarity: verdict.similarity,
    content: e.content,
    model: e.model,
    providers: e.providers,
    latency_ms: e.latency_ms,
    ...(e.ttft_ms !== undefined ? { ttft_ms: e.ttft_ms } : {}),
    cost: e.cost,
    note: e.note,
    ...(e.trajectory ? { trajectory: e.trajectory } : {}),
  };
}

/** A case the candidate's run does not hold: its suite was skipped, or it was never planned (missing). */
function absent(skipped: boolean): CandidateCell {
  return {
    change: skipped ? 'skipped' : 'missing',
    status: null,
    samples: null,
    error_kind: null,
    similarity: null,
    content: null,
    model: null,
    providers: [],
    latency_ms: null,
    cost: null,
    note: null,
  };
}

function runReference(ref: KeptCase | undefined): ReferenceCell {
  if (!ref || ref.status === 'not_run') return { status: ref?.status ?? null, samples: null, content: null };
  return {
    status: ref.status,
    samples: { passed: ref.passed, sent: ref.sent },
    content: ref.content,
    ...(ref.trajectory ? { trajectory: ref.trajectory } : {}),
  };
}

/**
 * The baseline's side of a case, as far as the candidates' drift reveals it: a status drift
 * names the baseline's verdict, content_changed carries its answer, and a candidate whose
 * answer and verdict did not move answered as the baseline did.
 */
function baselineReference(
  entries: readonly (KeptCase | undefined)[],
  cells: readonly CandidateCell[],
): ReferenceCell {
  let status: ReferenceCell['status'] = null;
  let content: string | null = null;
  let samples: ReferenceCell['samples'] = null;
  const said = entries.find((e) => e?.said);
  if (said) status = said.said_status;
  const text = entries.find((e) => e?.base_text !== null && e?.base_text !== undefined);
  if (text) content = text.base_text;
  entries.forEach((e, i) => {
    const change = cells[i]!.change;
    if (!e || (change !== 'same' && change !== 'changed')) return;
    status ??= e.status;
    if (content === null && !e.content_drift) content = e.content;
  });
  const base = entries.find((e) => e?.base_samples)?.base_samples;
  if (base) {
    samples = { passed: base.pass, sent: base.total };
    // A repeated case's verdict is its pass rate's: all its samples passed, or not.
    status ??= base.pass === base.total ? 'pass' : base.pass === 0 ? 'fail' : null;
  }
  return { status, samples, content };
}

/**
 * The suites candidates left out (another kind of service), one note per suite and reason,
 * with the candidates that skipped it.
 */
function skippedNotes(candidates: readonly ComparedRun[]): SkippedSuiteNote[] {
  const groups = new Map<string, SkippedSuiteNote>();
  for (const { label, side } of candidates)
    for (const { suite, reason } of side.head?.run.skipped_suites ?? []) {
      const key = JSON.stringify([suite, reason]);
      const group = groups.get(key) ?? { suite, reason, candidates: [] };
      group.candidates.push(label);
      groups.set(key, group);
    }
  return [...groups.values()];
}
