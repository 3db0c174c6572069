import type { RecheckInfo } from '../stored/report/types.js';
import { countOf } from '../util/numbers.js';

/**
 * The line every view shows of a recheck: whose answers, that nothing was sent, and what
 * it could not check (the cases are listed in report.json's `run.recheck`). Null for a run.
 */
export function recheckNote(recheck: RecheckInfo | undefined): string | null {
  if (!recheck) return null;
  const gaps = [
    recheck.not_answered.length
      ? `${countOf(recheck.not_answered.length, 'case')} with no stored answer (not run)`
      : '',
    recheck.dropped.length
      ? `${countOf(recheck.dropped.length, 'stored case')} no longer in the suites (dropped)`
      : '',
  ].filter(Boolean);
  return `recheck of run ${recheck.of}: its stored answers checked by today's suites, nothing sent${gaps.length ? `; ${gaps.join('; ')}` : ''}`;
}
