import { basename, join, relative, resolve } from 'node:path';
import { SuiteBaseline } from '../stored/baseline/suite-baseline.js';
import { type ComparedRun, ComparisonRows, type ComparisonView, type Reference } from '../compare/compare.js';
import { runLabel } from '../compare/folded-run.js';
import type { ComparedSide } from '../compare/side.js';
import { verdictCaseOfBaseline } from '../compare/verdict-cases.js';
import { compareFolder, writeComparison } from '../compare/write.js';
import type { CandidateNotRun } from '../compare/types.js';
import { type CandidatesFile, candidateRunIds } from '../run/candidates-file.js';
import type { RunMeta } from '../run/meta.js';
import { candidateLabel } from '../fold/provenance.js';
import { EXIT, worstExit } from '../util/exit-codes.js';
import { renderCandidateComparison, unservedProviders } from '../compare/console.js';
import { fitToTerminal } from '../report/terminal.js';
import { planStream, type SuiteSelection } from '../run/plan.js';
import { type PlanOptions } from '../stored/journal/records.js';
import { type CasesOf } from '../suite/load.js';
import type { ExitCode } from '../util/exit-codes.js';
import type { Suite } from '../suite/types.js';
import { UsageError } from '../util/errors.js';
import type { PlannedCandidate } from './candidates.js';
import { labelled, skippedLines } from './candidates.js';
import type { CliIO } from './io.js';
import type { PlanReaders, PlanStart, PlannedComparison, RunPlanBase } from './run-plan.js';
import type { RunRequest } from './run-request.js';

/**
 * `--models`, `--providers`: one run per candidate (each its own run folder, against the
 * current baseline), then the candidates compared once (ComparisonRows, with a paired
 * verdict per candidate against that baseline, which `reference` reads) and shown side by
 * side: on the console, and as compare.html/.json/.md in the comparison folder beside the
 * run folders, whose candidates.json lists every candidate and its run (reports/latest
 * stays the newest run). Each run is read for the comparison as it folds, a case at a
 * time, never held; `runOne` returns it, and the caller lets it go when the command ends.
 * A signal stops the command: the candidates not started are named in every view, and
 * `run --resume` of the folder makes them. Exits with the most serious of the runs' codes
 * (an interrupt's, when a candidate was not run): one candidate that failed, or a provider
 * that could not serve, is never hidden by the others passing — and theirs are shown all
 * the same.
 */
export async function runCandidates(
  io: CliIO,
  comparison: Pick<PlannedComparison, 'dir' | 'file' | 'candidates'>,
  interrupt: AbortSignal,
  runOne: (candidate: PlannedComparison['candidates'][number]) => Promise<ComparedSide>,
  against: Reference,
): Promise<ExitCode> {
  const { dir: compareDir, file } = comparison;
  const runs: ComparedRun[] = [];
  const notRun: CandidateNotRun[] = [];
  const signal = interrupt.reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT';
  for (const candidate of comparison.candidates) {
    const { entry } = candidate;
    if (interrupt.aborted) {
      notRun.push({
        label: entry.label,
        run_id: entry.run_id,
        reason: `the command was interrupted (${signal}) before it started`,
      });
      continue;
    }
    const label = `candidate ${candidateLabel(labelled(entry.candidate))}`;
    io.stderr(`\ndriftcheck: ${label}\n${skippedLines(label, entry.skipped)}`);
    runs.push({ label: entry.label, side: await runOne(candidate) });
  }
  const compared = new ComparisonRows(against, runs, notRun);
  const written =
    runs.length > 0
      ? await writeComparison(compareDir, compared)
      : { files: [], view: await viewOnly(compared) };
  const what = file.flag === '--providers' ? 'Providers' : 'Candidates';
  const unserved = unservedProviders(written.view)
    .map((line) => `${line}\n`)
    .join('');
  const columns = io.columns;
  io.stdout(
    `\n${what} against ${against.kind === 'baseline' ? 'the current baseline' : `run ${against.label}`}:\n${renderCandidateComparison(written.view, { columns })}${columns ? fitToTerminal(unserved, columns) : unserved}`,
  );
  if (written.files.length > 0)
    io.stderr(`compare: ${written.files.map((f) => relative(io.cwd, f)).join(' · ')}\n`);
  if (notRun.length > 0)
    io.stderr(
      `driftcheck: not run: ${notRun.map((c) => `candidate ${c.label}`).join(', ')}\n  → finish every candidate and rebuild the comparison with: driftcheck run --resume ${relative(io.cwd, compareDir) || '.'}\n`,
    );
  const codes = runs.map((r) => r.side.head!.run.exit_code);
  // A candidate not run is never a verdict: the command was interrupted.
  if (notRun.length > 0) codes.push(signal === 'SIGTERM' ? EXIT.sigterm : EXIT.sigint);
  return worstExit(codes);
}

/**
 * `--models`, `--providers` (or a comparison resumed): the reference read and checked, the
 * comparison's folder and candidates.json made (a new one's run ids taken now), and each
 * candidate's run — new, resumed where an earlier session stopped, or done.
 */
export async function planComparison(
  request: Pick<RunRequest, 'reference' | 'candidates'>,
  readers: Pick<PlanReaders, 'referenceRun' | 'runStatus' | 'started' | 'runMeta' | 'now'>,
  start: Pick<PlanStart, 'meta' | 'reportDir' | 'comparison'>,
  planned: readonly PlannedCandidate[],
  selections: readonly SuiteSelection[][],
  base: Pick<RunPlanBase, 'suites' | 'casesOf'>,
): Promise<PlannedComparison> {
  const { comparison, meta } = start;
  // Read before anything is sent: an unreadable reference, or one that ran none of the cases a
  // candidate would run, is refused up front (exit 2). A resumed comparison reads its own.
  const referenceDir =
    request.reference ??
    (comparison?.file.reference ? resolve(comparison.dir, comparison.file.reference) : null);
  const reference = referenceDir === null ? null : await readers.referenceRun(referenceDir);
  if (reference && !comparison) await refuseDisjointReference(reference, planned, base.suites, base.casesOf);
  const made =
    comparison ??
    comparisonFile(
      request.candidates!.flag as '--models' | '--providers',
      planned,
      meta,
      start.reportDir,
      referenceDir,
      readers.now(),
    );
  const name = basename(made.dir);
  const runs: PlannedComparison['candidates'] = [];
  for (const [i, entry] of made.file.candidates.entries()) {
    const selection = selections[i] ?? [];
    const cases = selection.reduce((n, s) => n + s.cases, 0);
    const runDir = join(start.reportDir, entry.run_id);
    if (comparison && (await readers.runStatus(runDir)) === 'completed')
      runs.push({ entry, run: null, cases });
    // Started earlier and stopped: resumed, its journal kept.
    else if (comparison && readers.started(runDir))
      runs.push({
        entry,
        run: { meta: await readers.runMeta(runDir), resumeDir: runDir, selection: null },
        cases,
      });
    else
      runs.push({
        entry,
        run: { meta: { ...meta, id: entry.run_id, plan: entry.plan, comparison: name }, selection },
        cases,
      });
  }
  return { dir: made.dir, file: made.file, isNew: comparison === null, reference, candidates: runs };
}

/**
 * A new comparison's folder, named by its candidates' runs (taken `now`, in candidate order:
 * `compare-<first>-<last>`), and the candidates.json to write in it before the first is sent.
 */
function comparisonFile(
  flag: '--models' | '--providers',
  planned: readonly PlannedCandidate[],
  meta: Omit<RunMeta, 'id' | 'started_at'>,
  reportDir: string,
  referenceDir: string | null,
  now: Date,
): { dir: string; file: CandidatesFile } {
  const ids = candidateRunIds(planned.length, now);
  const dir = compareFolder(reportDir, ids);
  const file: CandidatesFile = {
    version: 1,
    flag,
    meta,
    reference: referenceDir === null ? null : relative(dir, referenceDir),
    candidates: planned.map((p, i) => ({
      label: flag === '--providers' ? p.candidate.provider! : p.candidate.model!,
      run_id: ids[i]!,
      candidate: p.candidate,
      plan: p.plan,
      skipped: p.skipped,
    })),
  };
  return { dir, file };
}

/** A comparison's view without its files (no run to write them beside). */
async function viewOnly(comparison: ComparisonRows): Promise<ComparisonView> {
  for await (const _row of comparison.rows());
  return comparison.view();
}

/**
 * The reference of `--models`/`--providers` (and of `compare` for candidate runs): the
 * current baselines of the suites, the very files each candidate's run was compared with
 * (candidate runs never write them), each read when its suite's first case is compared: as
 * a run reads its baselines, case by case, never parsed whole.
 */
export function baselineReference(dir: string): Reference {
  const read = new Map<string, Promise<SuiteBaseline | null>>();
  const suiteOf = (suite: string) => {
    let baseline = read.get(suite);
    if (!baseline) read.set(suite, (baseline = SuiteBaseline.read(dir, suite)));
    return baseline;
  };
  return {
    kind: 'baseline',
    verdictCase: async (suite, caseId) => {
      const entry = (await suiteOf(suite))?.figures.get(caseId);
      return entry ? verdictCaseOfBaseline(suite, caseId, entry) : null;
    },
    // As a run's case entry holds it (a baseline file writes its keys sorted).
    trajectory: async (suite, caseId) => {
      const t = (await suiteOf(suite))?.case(caseId)?.trajectory;
      if (!t) return null;
      const calls = t.calls.map((c) => ({
        step: c.step,
        tool: c.tool,
        arguments: c.arguments,
        result: c.result,
      }));
      return { steps: t.steps, calls };
    },
  };
}

/** `run --reference RUN_DIR`: a stored run the candidates are compared with instead of the baseline. */
export function runReference(side: ComparedSide): Reference {
  return { kind: 'run', label: runLabel(side), side };
}

/**
 * `run --reference RUN_DIR`, before anything is sent: a candidate whose selection shares
 * no case with the reference run (another suite's run, or one whose cases were never run)
 * would be compared with nothing, so it is refused (exit 2) naming the run and the
 * candidates. Each distinct selection is read until its first case in common.
 */
async function refuseDisjointReference(
  reference: ComparedSide,
  planned: readonly PlannedCandidate[],
  suites: readonly Suite[],
  casesOf: CasesOf,
): Promise<void> {
  const shares = new Map<string, Promise<boolean>>();
  const disjoint: string[] = [];
  for (const { candidate, plan } of planned) {
    const key = JSON.stringify(plan.skip ?? []);
    let share = shares.get(key);
    if (!share) shares.set(key, (share = sharesACase(reference, suites, plan, casesOf)));
    if (!(await share)) disjoint.push(`${candidateLabel(labelled(candidate))}`);
  }
  if (disjoint.length === 0) return;
  const who = disjoint.length === planned.length ? 'the candidates' : `candidate ${disjoint.join(', ')}`;
  throw new UsageError(
    `--reference: run ${runLabel(reference)} ran none of the cases ${who} would run, so nothing would be compared; nothing was sent\n  → give as --reference a run of the same suites and cases (a night's run, or an earlier candidate's)`,
  );
}

async function sharesACase(
  reference: ComparedSide,
  suites: readonly Suite[],
  plan: PlanOptions,
  casesOf: CasesOf,
): Promise<boolean> {
  if (!reference.ranAny()) return false;
  for await (const group of planStream(suites, plan, casesOf))
    if (reference.ran(`${group.suite.suite}/${group.case.id}`)) return true;
  return false;
}
