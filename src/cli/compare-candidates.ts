import { readBaseline } from '../baseline/store.js';
import { candidateLabel } from '../fold/provenance.js';
import { worstExit } from '../exit-codes.js';
import { candidateVerdicts, type VerdictCase } from '../report/candidate-verdict.js';
import { type CandidateRun, renderCandidateComparison, unservedProviders } from '../report/candidates.js';
import { verdictCasesOfBaselines, verdictCasesOfRun } from '../report/verdict-cases.js';
import type { PlanOptions } from '../run/plan.js';
import type { Baseline, ExitCode, Report } from '../types.js';
import type { CandidateFlags, PlannedCandidate } from './candidates.js';
import { labelled, skippedLines } from './candidates.js';
import type { CliIO } from './io.js';

/**
 * `--models`, `--providers`: one run per candidate (each its own run folder, against the
 * current baseline), then the candidates side by side, with a paired verdict per candidate
 * against that baseline (`reference` reads it for the suites the candidates ran). Exits
 * with the most serious of their codes: one candidate that failed, or a provider that could
 * not serve, is never hidden by the others passing — and theirs are shown all the same.
 */
export async function runCandidates(
  io: CliIO,
  planned: readonly PlannedCandidate[],
  flag: CandidateFlags['flag'],
  interrupt: AbortSignal,
  runOne: (plan: PlanOptions) => Promise<Report>,
  reference: (suites: readonly string[]) => Promise<VerdictCase[]>,
): Promise<ExitCode> {
  const runs: CandidateRun[] = [];
  for (const { candidate, plan, skipped } of planned) {
    if (interrupt.aborted) break;
    const label = `candidate ${candidateLabel(labelled(candidate))}`;
    io.stderr(`\ndriftcheck: ${label}\n${skippedLines(label, skipped)}`);
    const report = await runOne(plan);
    runs.push({ label: flag === '--providers' ? candidate.provider! : candidate.model!, report });
  }
  const what = flag === '--providers' ? 'Providers' : 'Candidates';
  const unserved = unservedProviders(runs).map((line) => `${line}\n`);
  const suites = [...new Set(runs.flatMap((r) => r.report.cases.map((c) => c.suite)))];
  const verdicts = candidateVerdicts(
    await reference(suites),
    runs.map((r) => ({ label: r.label, cases: verdictCasesOfRun(r.report.cases) })),
  );
  io.stdout(
    `\n${what} against the current baseline:\n${renderCandidateComparison(runs, { verdicts })}${unserved.join('')}`,
  );
  return worstExit(runs.map((r) => r.report.run.exit_code));
}

/**
 * The reference of `--models`/`--providers`: the current baselines of these suites, the
 * very files each candidate's run was compared with (candidate runs never write them).
 */
export async function baselineReference(dir: string, suites: readonly string[]): Promise<VerdictCase[]> {
  const read = await Promise.all(suites.map((suite) => readBaseline(dir, suite)));
  return verdictCasesOfBaselines(read.filter((b): b is Baseline => b !== null));
}
