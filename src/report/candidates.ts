import Table from 'cli-table3';
import { formatUsd } from '../baseline/usage-change.js';
import type { CandidateCell, Comparison } from '../compare/types.js';

/**
 * Side by side, one column per candidate: each case's outcome against the reference
 * (regressed, fixed, changed, same), then the totals compareRuns made and each run's exit
 * code; under the table, each candidate's paired verdict, one line each. Renders only:
 * every count is the Comparison's.
 */
export function renderCandidateComparison(
  comparison: Comparison,
  options: { maxRows?: number } = {},
): string {
  const { candidates } = comparison;
  const table = new Table({
    head: ['case', ...candidates.map((c) => c.label)],
    style: { head: [], border: [] },
  });
  const interesting = comparison.cases.filter((row) => row.cells.some(notable));
  const max = options.maxRows ?? 40;
  for (const row of interesting.slice(0, max)) table.push([row.id, ...row.cells.map(cell)]);
  table.push(
    ['passed / total', ...candidates.map((c) => `${c.passed} / ${c.cases}`)],
    ['regressed · fixed', ...candidates.map((c) => `${c.changes.regressed} · ${c.changes.fixed}`)],
    ['tokens', ...candidates.map((c) => String(c.tokens.total))],
    ['cost', ...candidates.map((c) => (c.cost.total === null ? '—' : formatUsd(c.cost.total)))],
    ['run', ...candidates.map((c) => `exit ${c.exit_code}`)],
  );
  const more =
    interesting.length > max
      ? `\n… and ${interesting.length - max} more changed case(s) (see each report)`
      : '';
  const total = comparison.cases.length;
  const same = total - interesting.length;
  const skipped = comparison.skipped_suites.map(({ suite, reason, candidates: labels }) => {
    const under = labels.length === candidates.length ? 'every candidate' : labels.join(', ');
    return `skipped under ${under}: suite ${suite} (${reason})\n`;
  });
  const verdicts = candidates.map((c) => `${c.label}: ${c.verdict.line}\n`).join('');
  return `${table.toString()}${more}\n${verdicts}${same} of ${total} case(s) pass with no notable change under every candidate that ran them\n${skipped.join('')}`;
}

/**
 * Providers that could not serve a suite's model: their cases got the router's "no
 * provider meets your routing requirements" (`routing`) instead of an answer. One line per
 * provider and suite, with the router's words.
 */
export function unservedProviders(comparison: Comparison): string[] {
  return comparison.candidates.flatMap((c) =>
    c.unserved.map(
      (u) =>
        `provider ${c.provider ?? c.label} could not serve ${u.model} (suite ${u.suite}, ${u.cases} of ${u.total} cases): ${u.message}`,
    ),
  );
}

/** A cell worth a row of the table: anything but a pass that did not move (or a suite it skipped). */
function notable(c: CandidateCell): boolean {
  if (c.status === null) return false;
  return c.status !== 'pass' || c.change === 'regressed' || c.change === 'fixed' || c.change === 'changed';
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
