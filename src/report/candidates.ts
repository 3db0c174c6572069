import Table from 'cli-table3';
import { formatUsd } from '../baseline/usage-change.js';
import type { ComparisonView } from '../compare/compare.js';
import type { CandidateCell } from '../compare/types.js';
import { notRunText } from '../compare/format.js';

/**
 * Side by side, one column per candidate: each case's outcome against the reference
 * (regressed, fixed, changed, same), then the totals compareRuns made and each run's exit
 * code; under the table, each candidate's paired verdict, one line each. Renders only:
 * every count is the comparison's, and the rows shown are its first notable ones.
 */
export function renderCandidateComparison(view: ComparisonView, options: { maxRows?: number } = {}): string {
  const { candidates } = view.head;
  const table = new Table({
    head: ['case', ...candidates.map((c) => c.label)],
    style: { head: [], border: [] },
  });
  const interesting = view.notable;
  const shown = interesting.rows.slice(0, options.maxRows ?? interesting.rows.length);
  for (const row of shown) table.push([row.id, ...row.cells.map(cell)]);
  table.push(
    ['passed / total', ...candidates.map((c) => `${c.passed} / ${c.cases}`)],
    ['regressed · fixed', ...candidates.map((c) => `${c.changes.regressed} · ${c.changes.fixed}`)],
    ['tokens', ...candidates.map((c) => String(c.tokens.total))],
    ['cost', ...candidates.map((c) => (c.cost.total === null ? '—' : formatUsd(c.cost.total)))],
    ['run', ...candidates.map((c) => `exit ${c.exit_code}`)],
  );
  const more =
    interesting.count > shown.length
      ? `\n… and ${interesting.count - shown.length} more changed case(s) (see each report)`
      : '';
  const total = view.cases;
  const same = total - interesting.count;
  const skipped = view.head.skipped_suites.map(({ suite, reason, candidates: labels }) => {
    const under = labels.length === candidates.length ? 'every candidate' : labels.join(', ');
    return `skipped under ${under}: suite ${suite} (${reason})\n`;
  });
  const verdicts = candidates.map((c) => `${c.label}: ${c.verdict.line}\n`).join('');
  const notRun = view.head.candidates_not_run.map((c) => `not run: ${notRunText(c)}\n`).join('');
  return `${table.toString()}${more}\n${verdicts}${same} of ${total} case(s) pass with no notable change under every candidate that ran them\n${skipped.join('')}${notRun}`;
}

/**
 * Providers that could not serve a suite's model: their cases got the router's "no
 * provider meets your routing requirements" (`routing`) instead of an answer. One line per
 * provider and suite, with the router's words.
 */
export function unservedProviders(view: ComparisonView): string[] {
  return view.head.candidates.flatMap((c) =>
    c.unserved.map(
      (u) =>
        `provider ${c.provider ?? c.label} could not serve ${u.model} (suite ${u.suite}, ${u.cases} of ${u.total} cases): ${u.message}`,
    ),
  );
}

function cell(c: CandidateCell): string {
  if (c.status === null) return c.change === 'skipped' ? 'skipped' : '—';
  if (c.status === 'error') return `error (${c.error_kind})`;
  if (c.change === 'regressed') return `REGRESSED (${c.status})`;
  if (c.change === 'fixed') return 'fixed';
  if (c.status === 'not_run') return 'not run';
  const base = c.status === 'pass' ? 'pass' : 'fail';
  if (c.change !== 'changed') return base;
  return c.similarity !== null ? `${base}, changed ${c.similarity.toFixed(2)}` : `${base}, changed`;
}
