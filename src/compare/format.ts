import { formatUsd } from '../util/numbers.js';
import { CHANGE_WORDS, type Change } from '../core/words.js';
import type { CandidateNotRun, CandidateSummary } from './types.js';

/**
 * A candidate's figures as words, for the text views (compare.md; the page builds the same
 * words in its script from compare.json). Each takes a figure compareRuns computed.
 */
const pct = (x: number) => `${Math.round(x * 100)}%`;

export function passRateText(c: CandidateSummary): string {
  const p = c.pass_rate;
  if (!p) return 'no case answered';
  return `${pct(p.rate)} (${p.passed}/${p.total}; 95% CI ${pct(p.low)}–${pct(p.high)})`;
}

export function costText(c: CandidateSummary): string {
  if (c.cost.per_1000_cases === null) return 'not reported';
  const partial =
    c.cost.cases_with_cost < c.cases ? ` (${c.cost.cases_with_cost} of ${c.cases} cases priced)` : '';
  return `${formatUsd(c.cost.per_1000_cases)}${partial}`;
}

export function latencyText(c: CandidateSummary): string {
  return c.latency_ms === null ? 'n/a' : `${c.latency_ms.p50} / ${c.latency_ms.p95} ms`;
}

/** Its streamed samples' time to first token: `240 / 610 ms`; `not streamed` when none was. */
export function ttftText(c: CandidateSummary): string {
  return c.ttft_ms === null ? 'not streamed' : `${c.ttft_ms.p50} / ${c.ttft_ms.p95} ms`;
}

/** Whether any candidate streamed: only then do the views give time to first token a row. */
export function anyStreamed(candidates: readonly CandidateSummary[]): boolean {
  return candidates.some((c) => c.ttft_ms !== null);
}

export function toolsText(c: CandidateSummary): string {
  const t = c.tools;
  if (!t) return '—';
  return `${pct(t.trigger_rate)} called · ${t.valid_rate === null ? 'no call' : `${pct(t.valid_rate)} valid`}`;
}

export function errorsText(c: CandidateSummary): string {
  const kinds = Object.entries(c.error_kinds).sort((a, b) => b[1] - a[1]);
  return kinds.length ? kinds.map(([k, n]) => `${k} ×${n}`).join(', ') : 'none';
}

export function servedText(list: CandidateSummary['providers']): string {
  return list.length ? list.map((p) => `${p.name} (${p.cases})`).join(', ') : '—';
}

/** A candidate whose run was not made, as every view names it (the console adds the command to finish it). */
export function notRunText(c: CandidateNotRun): string {
  return `candidate ${c.label} did not run (${c.reason}); run --resume of this comparison runs it (as run ${c.run_id}) and rebuilds these files`;
}

/**
 * The change counts every view of a comparison shows, in one order and under the words
 * module's names: `regressed · fixed · changed`, then the cases it did not compare.
 */
const CHANGE_ROWS: readonly (readonly Change[])[] = [
  ['regressed', 'fixed', 'changed'],
  ['not_run', 'missing', 'skipped'],
];

/** The change rows' labels: `regressed · fixed · changed`, `not run · missing · skipped`. */
export const CHANGE_ROW_LABELS: readonly string[] = CHANGE_ROWS.map((kinds) =>
  kinds.map((k) => CHANGE_WORDS[k]).join(' · '),
);

/** A candidate's values of the change rows, in CHANGE_ROW_LABELS' order: `3 · 0 · 3`. */
export function changeRowValues(c: Pick<CandidateSummary, 'changes'>): string[] {
  return CHANGE_ROWS.map((kinds) => kinds.map((k) => String(c.changes[k])).join(' · '));
}
