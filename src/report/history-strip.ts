import type { CaseHistory } from '../stored/report/types.js';
import type { CaseStatus } from '../core/words.js';

const MARKS: Record<CaseStatus, string> = { pass: '✓', fail: '✗', error: '!', not_run: '·' };

/** A case's recent nights as marks, oldest first: `✓✓✓✗✗` (✓ pass, ✗ fail, ! error, · not run). */
function historyStrip(history: CaseHistory): string {
  return history.nights.map((n) => MARKS[n.status]).join('');
}

/** `since 2026-11-20 (run 20261120T…)`, or '' when nothing changed within the history. */
function sinceText(history: CaseHistory): string {
  if (!history.since) return '';
  return `since ${history.since.started_at.slice(0, 10)} (run ${history.since.run_id})`;
}

/** One line for a listing: `since 2026-11-20 (run …) · last 14 nights ✓✓✓✗✗`. */
export function historyLine(history: CaseHistory | undefined): string {
  if (!history) return '';
  const strip = historyStrip(history);
  return [sinceText(history), strip ? `last ${history.nights.length} nights ${strip}` : '']
    .filter(Boolean)
    .join(' · ');
}
