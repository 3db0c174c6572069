import { candidateLabel } from '../fold/provenance.js';
import { worstExit } from '../exit-codes.js';
import { type CandidateRun, renderCandidateComparison, unservedProviders } from '../report/candidates.js';
import type { PlanOptions } from '../run/plan.js';
import type { ExitCode, Report } from '../types.js';
import type { CandidateFlags, PlannedCandidate } from './candidates.js';
import { labelled, skippedLines } from './candidates.js';
import type { CliIO } from './io.js';

/**
 * `--models`, `--providers`: one run per candidate (each its own run folder, against the
 * current baseline), then the candidates side by side. Exits with the most serious of
 * their codes: one candidate that failed, or a provider that could not serve, is never
 * hidden by the others passing — and theirs are shown all the same.
 */
export async function runCandidates(
  io: CliIO,
  planned: readonly PlannedCandidate[],
  flag: CandidateFlags['flag'],
  interrupt: AbortSignal,
  runOne: (plan: PlanOptions) => Promise<Report>,
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
  io.stdout(
    `\n${what} against the current baseline:\n${renderCandidateComparison(runs)}${unserved.join('')}`,
  );
  return worstExit(runs.map((r) => r.report.run.exit_code));
}
