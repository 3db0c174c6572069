import { relative } from 'node:path';
import { readBaseline } from '../baseline/store.js';
import { compareRuns, type ComparedRun, type Reference } from '../compare/compare.js';
import { type FoldedRun, runLabel } from '../compare/folded-run.js';
import { compareFolder, writeComparison } from '../compare/write.js';
import { candidateLabel } from '../fold/provenance.js';
import { worstExit } from '../exit-codes.js';
import { renderCandidateComparison, unservedProviders } from '../report/candidates.js';
import { type CasesOf, type PlanOptions, planStream } from '../run/plan.js';
import type { VerdictCase } from '../report/candidate-verdict.js';
import { verdictCasesOfBaselines } from '../report/verdict-cases.js';
import type { Baseline, ExitCode, Suite } from '../types.js';
import { UsageError } from '../errors.js';
import type { CandidateFlags, PlannedCandidate } from './candidates.js';
import { labelled, skippedLines } from './candidates.js';
import type { CliIO } from './io.js';

/**
 * `--models`, `--providers`: one run per candidate (each its own run folder, against the
 * current baseline), then the candidates compared once (compareRuns, with a paired verdict
 * per candidate against that baseline, which `reference` reads) and shown side by side: on the console, and as compare.html/.json/.md in `reports/compare-<first>-<last>/`
 * beside the run folders (reports/latest stays the newest run). Exits with the most
 * serious of their codes: one candidate that failed, or a provider that could not serve,
 * is never hidden by the others passing — and theirs are shown all the same.
 */
export async function runCandidates(
  io: CliIO,
  planned: readonly PlannedCandidate[],
  flag: CandidateFlags['flag'],
  interrupt: AbortSignal,
  reportDir: string,
  runOne: (plan: PlanOptions) => Promise<FoldedRun>,
  reference: (suites: readonly string[]) => Promise<Reference>,
): Promise<ExitCode> {
  const runs: ComparedRun[] = [];
  for (const { candidate, plan, skipped } of planned) {
    if (interrupt.aborted) break;
    const label = `candidate ${candidateLabel(labelled(candidate))}`;
    io.stderr(`\ndriftcheck: ${label}\n${skippedLines(label, skipped)}`);
    const run = await runOne(plan);
    runs.push({ label: flag === '--providers' ? candidate.provider! : candidate.model!, run });
  }
  const suites = [...new Set(runs.flatMap((r) => r.run.cases.map((c) => c.suite)))];
  const against = await reference(suites);
  const comparison = compareRuns(against, runs);
  const what = flag === '--providers' ? 'Providers' : 'Candidates';
  const unserved = unservedProviders(comparison).map((line) => `${line}\n`);
  io.stdout(
    `\n${what} against ${against.kind === 'baseline' ? 'the current baseline' : `run ${against.label}`}:\n${renderCandidateComparison(comparison)}${unserved.join('')}`,
  );
  if (runs.length > 0) {
    const files = await writeComparison(
      compareFolder(
        reportDir,
        runs.map((r) => r.run),
      ),
      comparison,
    );
    io.stderr(`compare: ${files.map((f) => relative(io.cwd, f)).join(' · ')}\n`);
  }
  return worstExit(runs.map((r) => r.run.head.run.exit_code));
}

/**
 * The reference of `--models`/`--providers`: the current baselines of these suites, the
 * very files each candidate's run was compared with (candidate runs never write them).
 */
export async function baselineReference(dir: string, suites: readonly string[]): Promise<VerdictCase[]> {
  const read = await Promise.all(suites.map((suite) => readBaseline(dir, suite)));
  return verdictCasesOfBaselines(read.filter((b): b is Baseline => b !== null));
}

/** `run --reference RUN_DIR`: a stored run the candidates are compared with instead of the baseline. */
export function runReference(run: FoldedRun): Reference {
  return { kind: 'run', label: runLabel(run), run };
}

/**
 * `run --reference RUN_DIR`, before anything is sent: a candidate whose selection shares
 * no case with the reference run (another suite's run, or one whose cases were never run)
 * would be compared with nothing, so it is refused (exit 2) naming the run and the
 * candidates. Each distinct selection is read until its first case in common.
 */
export async function refuseDisjointReference(
  reference: FoldedRun,
  planned: readonly PlannedCandidate[],
  suites: readonly Suite[],
  casesOf: CasesOf,
): Promise<void> {
  const ran = new Set(reference.cases.filter((c) => c.samples.sent > 0).map((c) => c.id));
  const shares = new Map<string, Promise<boolean>>();
  const disjoint: string[] = [];
  for (const { candidate, plan } of planned) {
    const key = JSON.stringify(plan.skip ?? []);
    let share = shares.get(key);
    if (!share) shares.set(key, (share = sharesACase(ran, suites, plan, casesOf)));
    if (!(await share)) disjoint.push(`${candidateLabel(labelled(candidate))}`);
  }
  if (disjoint.length === 0) return;
  const who = disjoint.length === planned.length ? 'the candidates' : `candidate ${disjoint.join(', ')}`;
  throw new UsageError(
    `--reference: run ${runLabel(reference)} ran none of the cases ${who} would run, so nothing would be compared; nothing was sent\n  → give as --reference a run of the same suites and cases (a night's run, or an earlier candidate's)`,
  );
}

async function sharesACase(
  ran: ReadonlySet<string>,
  suites: readonly Suite[],
  plan: PlanOptions,
  casesOf: CasesOf,
): Promise<boolean> {
  if (ran.size === 0) return false;
  for await (const group of planStream(suites, plan, casesOf))
    if (ran.has(`${group.suite.suite}/${group.case.id}`)) return true;
  return false;
}
