import { EXIT, type ExitCode, isIncomplete, worstExit } from '../util/exit-codes.js';
import { CHANGE_WORDS } from '../core/words.js';
import type { CandidateSummary, Comparison } from './types.js';

/**
 * `driftcheck compare`'s exit code, from the comparison alone: a candidate whose run did
 * not finish keeps its code (the worst wins); otherwise 1 when a candidate regressed
 * against the reference, left a case of it unanswered (planned, never answered), had a
 * provider that could not serve (or answered none of the cases, or too few to test), or shares no case with the reference (compared with
 * nothing, it is not a pass); 0 only when every candidate ran every case it was given, was
 * compared, and none regressed. A case `missing` from a candidate's run (never planned
 * there) is not compared and does not fail it, as `diff` reads a case B lacks. Pure.
 */
export function compareExit(comparison: Pick<Comparison, 'candidates'>): ExitCode {
  return worstExit(comparison.candidates.map((c) => candidateExit(c).code));
}

/** Why compare exits non-zero: one line per candidate that makes it so, in the words module's words. */
export function compareExitReasons(comparison: Pick<Comparison, 'candidates'>): string[] {
  return comparison.candidates.flatMap((c) => {
    const { reasons } = candidateExit(c);
    return reasons.length ? [`${c.label}: ${reasons.join(', ')}`] : [];
  });
}

function candidateExit(c: CandidateSummary): { code: ExitCode; reasons: string[] } {
  if (isIncomplete(c.exit_code))
    return { code: c.exit_code, reasons: [`its run did not finish (${c.run_status}, exit ${c.exit_code})`] };
  const reasons: string[] = [];
  if (c.changes.regressed > 0) reasons.push(`${c.changes.regressed} ${CHANGE_WORDS.regressed}`);
  if (c.changes.not_run > 0)
    reasons.push(`${c.changes.not_run} ${CHANGE_WORDS.not_run} (planned, never answered)`);
  for (const u of c.unserved)
    reasons.push(`provider ${c.provider ?? c.label} could not serve ${u.model} (suite ${u.suite})`);
  if (c.verdict.cases === 0) reasons.push('shares no case with the reference: nothing was compared');
  else if (c.verdict.could_not_serve)
    reasons.push(`could not serve: ${c.verdict.answered} of ${c.verdict.cases} cases answered`);
  return { code: reasons.length ? EXIT.failure : EXIT.ok, reasons };
}
