import { contentDrift } from '../baseline/answer-drift.js';
import { isRegressed } from '../fold/summary.js';
import type { CaseEntry, Drift } from '../types.js';
import { type CandidateVerdict, candidateVerdicts, type VerdictCase } from '../report/candidate-verdict.js';
import { verdictCasesOfRun } from '../report/verdict-cases.js';
import type { FoldedRun } from './folded-run.js';
import { summarizeCandidate, markFrontier } from './summary.js';
import {
  type CandidateCell,
  type CaseRow,
  type Change,
  COMPARE_SCHEMA_VERSION,
  type Comparison,
  type ComparedReference,
  type PairedVerdict,
  type ReferenceCell,
  type SkippedSuiteNote,
} from './types.js';

/** A candidate as compareRuns takes it: the column's name and its folded run. */
export interface ComparedRun {
  label: string;
  run: FoldedRun;
}

/**
 * What the candidates are compared with. `baseline`: the baseline each candidate's run was
 * diffed against when it was folded (its drift already says what regressed, with the
 * suite's own tolerances); `run`: another run, case by case.
 */
export type Reference =
  | {
      kind: 'baseline';
      /** The baseline files' cases, for the paired verdicts (verdictCasesOfBaselines). */
      cases: readonly VerdictCase[];
    }
  | ({ kind: 'run' } & ComparedRun);

/**
 * The candidates side by side against the reference: one row per case (in plan order, the
 * reference's cases first), one cell per candidate, and per candidate its totals. Every count
 * any view shows is made here, once. Pure.
 */
export function compareRuns(reference: Reference, candidates: readonly ComparedRun[]): Comparison {
  const byId = candidates.map((c) => new Map(c.run.cases.map((e) => [e.id, e])));
  const refCases = reference.kind === 'run' ? new Map(reference.run.cases.map((e) => [e.id, e])) : null;
  const ids = new Map<string, Pick<CaseEntry, 'suite' | 'case'>>();
  for (const run of [...(reference.kind === 'run' ? [reference.run] : []), ...candidates.map((c) => c.run)])
    for (const e of run.cases) if (!ids.has(e.id)) ids.set(e.id, e);
  const skips = candidates.map((c) => new Set((c.run.head.run.skipped_suites ?? []).map((s) => s.suite)));
  const rows: CaseRow[] = [...ids].map(([id, { suite, case: caseId }]) => {
    const entries = byId.map((m) => m.get(id));
    const ref = refCases?.get(id);
    const cells = entries.map((e, i) =>
      e ? cellOf(e, refCases ? againstRun(ref, e) : againstBaseline(e)) : absent(skips[i]!.has(suite)),
    );
    return {
      id,
      suite,
      case: caseId,
      reference: refCases ? runReference(ref) : baselineReference(entries, cells),
      cells,
    };
  });
  const summaries = candidates.map((c, i) =>
    summarizeCandidate(
      c,
      rows.map((r) => r.cells[i]!),
    ),
  );
  markFrontier(summaries);
  const verdicts = candidateVerdicts(
    reference.kind === 'baseline' ? reference.cases : verdictCasesOfRun(reference.run.cases),
    candidates.map((c) => ({ label: c.label, cases: verdictCasesOfRun(c.run.cases) })),
  );
  return {
    schema_version: COMPARE_SCHEMA_VERSION,
    reference: referenceOf(reference),
    candidates: summaries.map((summary, i) => ({ ...summary, verdict: pairedVerdict(verdicts[i]!) })),
    cases: rows,
    skipped_suites: skippedNotes(candidates),
  };
}

function pairedVerdict({ label: _label, test, ...verdict }: CandidateVerdict): PairedVerdict {
  const { method, cases, regressions, fixes } = test;
  return { method, cases, regressions, fixes, ...verdict };
}

function referenceOf(reference: Reference): ComparedReference {
  if (reference.kind === 'baseline') return { kind: 'baseline', label: 'baseline', run_id: null, dir: null };
  return { kind: 'run', label: reference.label, run_id: reference.run.head.run.id, dir: reference.run.dir };
}

interface Verdict {
  change: Change;
  similarity: number | null;
}

/** Against the baseline the run was folded with: its drift decided, with the suite's tolerances. */
function againstBaseline(e: CaseEntry): Verdict {
  const content = e.drift.find((d) => d.kind === 'content_changed');
  const similarity = content?.similarity ?? null;
  if (e.status === 'not_run') return { change: 'not_run', similarity: null };
  if (isRegressed(e)) return { change: 'regressed', similarity };
  if (e.drift.some((d) => d.kind === 'fixed')) return { change: 'fixed', similarity };
  if (e.drift.some((d) => d.kind === 'new_case')) return { change: 'new', similarity: null };
  if (content || e.drift.some((d) => d.severity === 'warn')) return { change: 'changed', similarity };
  return { change: 'same', similarity: null };
}

/**
 * Against another run, case by case: the verdicts decide regressed and fixed; with the same
 * verdict, another answer (by the default content rules) or another error is a change.
 */
function againstRun(ref: CaseEntry | undefined, e: CaseEntry): Verdict {
  if (e.status === 'not_run') return { change: 'not_run', similarity: null };
  if (!ref || ref.status === 'not_run') return { change: 'new', similarity: null };
  const content = contentDrift(ref.content, e.content)[0];
  const similarity = content?.similarity ?? null;
  const passed = (s: string) => s === 'pass';
  if (passed(ref.status) && !passed(e.status)) return { change: 'regressed', similarity };
  if (!passed(ref.status) && passed(e.status)) return { change: 'fixed', similarity };
  if (content || ref.error?.kind !== e.error?.kind || ref.status !== e.status)
    return { change: 'changed', similarity };
  return { change: 'same', similarity: null };
}

function cellOf(e: CaseEntry, verdict: Verdict): CandidateCell {
  return {
    change: verdict.change,
    status: e.status,
    samples: { passed: e.samples.passed, sent: e.samples.sent },
    error_kind: e.error?.kind ?? null,
    similarity: verdict.similarity,
    content: e.content,
    model: e.model,
    providers: [...e.providers],
    latency_ms: e.stats.latency_ms?.p50 ?? null,
    cost: e.stats.cost,
    note: noteOf(e),
  };
}

/** A case the candidate's run does not hold: its suite was skipped, or it was never planned. */
function absent(skipped: boolean): CandidateCell {
  return {
    change: skipped ? 'skipped' : 'not_run',
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

const NOTE_CHARS = 240;

/** Why a cell reads as it does, one line: the error, the failing checks, or the drift worth a look. */
function noteOf(e: CaseEntry): string | null {
  const parts: string[] = [];
  if (e.error) parts.push(`${e.error.kind}: ${e.error.message}`);
  else for (const k of e.checks) if (!k.pass) parts.push(`${k.type}: ${k.message}`);
  for (const d of e.drift) if (d.severity !== 'info' && d.kind !== 'new_error') parts.push(d.message);
  if (parts.length === 0) return null;
  const text = parts.join('; ').replace(/\s+/g, ' ');
  return text.length > NOTE_CHARS ? `${text.slice(0, NOTE_CHARS)}…` : text;
}

function runReference(ref: CaseEntry | undefined): ReferenceCell {
  if (!ref || ref.status === 'not_run') return { status: ref?.status ?? null, samples: null, content: null };
  return {
    status: ref.status,
    samples: { passed: ref.samples.passed, sent: ref.samples.sent },
    content: ref.content,
  };
}

/**
 * The baseline's side of a case, as far as the candidates' drift reveals it: a status drift
 * names the baseline's verdict, content_changed carries its answer, and a candidate whose
 * answer and verdict did not move answered as the baseline did.
 */
function baselineReference(
  entries: readonly (CaseEntry | undefined)[],
  cells: readonly CandidateCell[],
): ReferenceCell {
  let status: ReferenceCell['status'] = null;
  let content: string | null = null;
  let samples: ReferenceCell['samples'] = null;
  const drifts = entries.flatMap((e) => e?.drift ?? []);
  const said = drifts.find((d) => STATUS_DRIFT.has(d.kind));
  if (said) status = statusIn(said);
  const text = drifts.find((d) => d.kind === 'content_changed' && typeof d.baseline === 'string');
  if (text) content = text.baseline as string;
  entries.forEach((e, i) => {
    const change = cells[i]!.change;
    if (!e || (change !== 'same' && change !== 'changed')) return;
    status ??= e.status;
    if (content === null && !e.drift.some((d) => d.kind === 'content_changed')) content = e.content;
  });
  const base = entries.find((e) => e?.pass_rate?.baseline)?.pass_rate?.baseline;
  if (base) {
    samples = { passed: base.pass, sent: base.total };
    // A repeated case's verdict is its pass rate's: all its samples passed, or not.
    status ??= base.pass === base.total ? 'pass' : base.pass === 0 ? 'fail' : null;
  }
  return { status, samples, content };
}

const STATUS_DRIFT = new Set(['regressed', 'fixed', 'new_error', 'refused', 'error_changed']);

function statusIn(d: Drift): ReferenceCell['status'] {
  if (d.kind === 'error_changed') return 'error';
  return d.baseline === 'pass' || d.baseline === 'fail' || d.baseline === 'error' ? d.baseline : null;
}

/**
 * The suites candidates left out (another kind of service), one note per suite and reason,
 * with the candidates that skipped it.
 */
function skippedNotes(candidates: readonly ComparedRun[]): SkippedSuiteNote[] {
  const groups = new Map<string, SkippedSuiteNote>();
  for (const { label, run } of candidates)
    for (const { suite, reason } of run.head.run.skipped_suites ?? []) {
      const key = JSON.stringify([suite, reason]);
      const group = groups.get(key) ?? { suite, reason, candidates: [] };
      group.candidates.push(label);
      groups.set(key, group);
    }
  return [...groups.values()];
}
