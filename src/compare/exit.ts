import { EXIT, type ExitCode, isIncomplete, worstExit } from '../exit-codes.js';
import type { Comparison } from './types.js';

/**
 * `driftcheck compare`'s exit code, from the comparison alone: a candidate whose run did
 * not finish keeps its code (the worst wins); otherwise 1 when a candidate regressed
 * against the reference, left a case of it unanswered, had a provider that could not serve
 * (or answered none of the cases, or too few to test), or shares no case with the reference (compared with nothing, it is not a pass); 0 only
 * when every candidate ran every case it was given, was compared, and none regressed. Pure.
 */
export function compareExit(comparison: Pick<Comparison, 'candidates'>): ExitCode {
  const codes = comparison.candidates.map((c): ExitCode => {
    if (isIncomplete(c.exit_code)) return c.exit_code;
    if (
      c.changes.regressed > 0 ||
      c.changes.not_run > 0 ||
      c.unserved.length > 0 ||
      c.verdict.cases === 0 ||
      c.verdict.could_not_serve
    )
      return EXIT.failure;
    return EXIT.ok;
  });
  return worstExit(codes);
}
