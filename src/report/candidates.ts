import Table from 'cli-table3';
import { formatUsd } from '../baseline/usage-change.js';
import { isRegressed } from '../fold/summary.js';
import type { CaseEntry, Report } from '../types.js';

/** One candidate's run, as `--models` compares them. */
export interface CandidateRun {
  model: string;
  report: Report;
}

interface Totals {
  passed: number;
  failed: number;
  errored: number;
  regressed: number;
  fixed: number;
  tokens: number;
  cost: number | null;
}

/** Tokens, cost and outcome counts of one candidate's report. Pure. */
export function candidateTotals(report: Report): Totals {
  const totals: Totals = { passed: 0, failed: 0, errored: 0, regressed: 0, fixed: 0, tokens: 0, cost: null };
  for (const c of report.cases) {
    if (c.status === 'pass') totals.passed++;
    if (c.status === 'fail') totals.failed++;
    if (c.status === 'error') totals.errored++;
    if (isRegressed(c)) totals.regressed++;
    if (c.drift.some((d) => d.kind === 'fixed')) totals.fixed++;
    totals.tokens += c.stats.total_tokens;
    if (c.stats.cost !== null) totals.cost = (totals.cost ?? 0) + c.stats.cost;
  }
  return totals;
}

/**
 * Side by side, one column per candidate: each case's outcome against the current
 * baseline (regressed, fixed, changed, same), then tokens, cost and a verdict per model.
 */
export function renderCandidateComparison(
  runs: readonly CandidateRun[],
  options: { maxRows?: number } = {},
): string {
  const keys = [...new Set(runs.flatMap((r) => r.report.cases.map((c) => c.id)))];
  const byKey = runs.map((r) => new Map(r.report.cases.map((c) => [c.id, c])));
  const table = new Table({ head: ['case', ...runs.map((r) => r.model)], style: { head: [], border: [] } });
  const interesting = keys.filter((k) =>
    byKey.some((m) => {
      const c = m.get(k);
      return c && (c.status !== 'pass' || c.drift.some((d) => d.severity !== 'info' || d.kind === 'fixed'));
    }),
  );
  const max = options.maxRows ?? 40;
  for (const key of interesting.slice(0, max)) table.push([key, ...byKey.map((m) => cell(m.get(key)))]);
  const totals = runs.map((r) => candidateTotals(r.report));
  table.push(
    ['passed / total', ...totals.map((t, i) => `${t.passed} / ${runs[i]!.report.cases.length}`)],
    ['regressed · fixed', ...totals.map((t) => `${t.regressed} · ${t.fixed}`)],
    ['tokens', ...totals.map((t) => String(t.tokens))],
    ['cost', ...totals.map((t) => (t.cost === null ? '—' : formatUsd(t.cost)))],
    [
      'verdict',
      ...runs.map((r) => (r.report.run.exit_code === 0 ? 'no regression' : `exit ${r.report.run.exit_code}`)),
    ],
  );
  const more =
    interesting.length > max
      ? `\n… and ${interesting.length - max} more changed case(s) (see each report)`
      : '';
  const same = keys.length - interesting.length;
  return `${table.toString()}${more}\n${same} of ${keys.length} case(s) pass with no notable change under every candidate\n`;
}

function cell(c: CaseEntry | undefined): string {
  if (!c) return '—';
  if (c.status === 'error') return `error (${c.error?.kind})`;
  if (isRegressed(c)) return `REGRESSED (${c.status})`;
  if (c.drift.some((d) => d.kind === 'fixed')) return 'fixed';
  const content = c.drift.find((d) => d.kind === 'content_changed');
  const base = c.status === 'pass' ? 'pass' : 'fail';
  return content?.similarity !== undefined ? `${base}, changed ${content.similarity.toFixed(2)}` : base;
}
