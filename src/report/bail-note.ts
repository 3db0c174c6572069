import type { RunBail, Summary } from '../stored/report/types.js';
import { countOf } from '../util/numbers.js';

/**
 * The line every view shows of a run that stopped sending at `--bail N`: after how many
 * failing cases, and how many it left unsent. Null for a run that did not.
 */
export function bailNote(bail: RunBail | undefined, summary: Pick<Summary, 'not_run'>): string | null {
  if (!bail) return null;
  return `--bail ${bail.limit}: sending stopped after ${countOf(bail.failing, 'failing case')}; ${countOf(summary.not_run, 'case')} not run`;
}
