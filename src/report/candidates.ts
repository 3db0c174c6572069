import Table from 'cli-table3';
import { formatUsd } from '../baseline/usage-change.js';
import { isRegressed } from '../fold/summary.js';
import type { CaseEntry, Report } from '../types.js';
import type { CandidateVerdict } from './candidate-verdict.js';

/** One candidate's run, as `--models` and `--providers` compare them. */
export interface CandidateRun {
  /** The column's head: the model, or the provider slug. */
  label: string;
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
 * baseline (regressed, fixed, changed, same), then tokens, cost and a verdict per model;
 * under the table, each candidate's paired verdict (candidateVerdicts), one line each.
 */
export function renderCandidateComparison(
  runs: readonly CandidateRun[],
  options: { maxRows?: number; verdicts?: readonly CandidateVerdict[] } = {},
): string {
  const keys = [...new Set(runs.flatMap((r) => r.report.cases.map((c) => c.id)))];
  const byKey = runs.map((r) => new Map(r.report.cases.map((c) => [c.id, c])));
  const table = new Table({ head: ['case', ...runs.map((r) => r.label)], style: { head: [], border: [] } });
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
  const skipped = skippedNotes(runs).map((line) => `${line}\n`);
  const verdicts = (options.verdicts ?? []).map((v) => `${v.label}: ${v.line}\n`).join('');
  return `${table.toString()}${more}\n${verdicts}${same} of ${keys.length} case(s) pass with no notable change under every candidate that ran them\n${skipped.join('')}`;
}

/**
 * The suites candidates left out (another kind of service), one line per suite and reason:
 * "under every candidate" when all skipped it for it, else the candidates that did. Pure.
 */
function skippedNotes(runs: readonly CandidateRun[]): string[] {
  const groups = new Map<string, { suite: string; reason: string; labels: string[] }>();
  for (const run of runs)
    for (const { suite, reason } of run.report.run.skipped_suites ?? []) {
      const key = JSON.stringify([suite, reason]);
      const group = groups.get(key) ?? { suite, reason, labels: [] };
      group.labels.push(run.label);
      groups.set(key, group);
    }
  return [...groups.values()].map(({ suite, reason, labels }) => {
    const under = labels.length === runs.length ? 'every candidate' : labels.join(', ');
    return `skipped under ${under}: suite ${suite} (${reason})`;
  });
}

/**
 * Providers that could not serve a suite's model: their cases got the router's "no
 * provider meets your routing requirements" (`routing`) instead of an answer. One line per
 * provider and suite, with the router's words. Pure.
 */
export function unservedProviders(runs: readonly CandidateRun[]): string[] {
  const lines: string[] = [];
  for (const { report } of runs) {
    const provider = report.run.candidate_provider;
    if (!provider) continue;
    const bySuite = new Map<string, { model: string; count: number; total: number; message: string }>();
    for (const c of report.cases) {
      const entry = bySuite.get(c.suite) ?? { model: c.requested_model, count: 0, total: 0, message: '' };
      entry.total++;
      if (c.error?.kind === 'routing') {
        entry.count++;
        entry.message ||= c.error.message;
      }
      bySuite.set(c.suite, entry);
    }
    for (const [suite, e] of bySuite)
      if (e.count > 0)
        lines.push(
          `provider ${provider} could not serve ${e.model} (suite ${suite}, ${e.count} of ${e.total} cases): ${e.message}`,
        );
  }
  return lines;
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
