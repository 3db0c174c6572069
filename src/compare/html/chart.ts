import { formatUsd } from '../../baseline/usage-change.js';
import { escapeHtml } from '../../report/html/escape.js';
import type { CandidateSummary } from '../types.js';

const W = 560;
const H = 300;
const PAD = { left: 56, right: 24, top: 18, bottom: 44 };

/**
 * The cost-versus-pass-rate chart as inline SVG (no script, no library): one point per
 * candidate with a known cost and pass rate, its 95 % interval as a vertical bar, the
 * frontier (compareRuns' `pareto`) joined by a line and marked with a ring and a star.
 * Presentation attributes only: the page's CSP allows no inline style attribute.
 */
export function costChart(candidates: readonly CandidateSummary[]): string {
  const placed = candidates
    .map((c, index) => ({ c, index }))
    .filter(({ c }) => c.cost.per_1000_cases !== null && c.pass_rate !== null);
  const unplaced = candidates.filter((c) => !placed.some((p) => p.c === c));
  const note = unplaced.length
    ? `<p class="muted" id="chart-unplaced">Not on the chart (no cost reported): ${unplaced.map((c) => escapeHtml(c.label)).join(', ')}.</p>`
    : '';
  if (placed.length === 0)
    return `<p class="muted" id="chart-empty">No candidate reported a cost: the cost-versus-pass-rate chart needs one.</p>${note}`;
  const costs = placed.map(({ c }) => c.cost.per_1000_cases!);
  const max = Math.max(...costs) * 1.1 || 1;
  const x = (cost: number) => PAD.left + (cost / max) * (W - PAD.left - PAD.right);
  const y = (rate: number) => PAD.top + (1 - rate) * (H - PAD.top - PAD.bottom);
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  const grid = ticks
    .map(
      (t) =>
        `<line class="grid" x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(t)}" y2="${y(t)}"/><text class="tick" x="${PAD.left - 6}" y="${y(t) + 4}" text-anchor="end">${t * 100}%</text>`,
    )
    .join('');
  const xTicks = [0, 0.5, 1]
    .map(
      (t) =>
        `<text class="tick" x="${x(max * t)}" y="${H - PAD.bottom + 16}" text-anchor="middle">${escapeHtml(formatUsd(max * t))}</text>`,
    )
    .join('');
  const frontier = placed
    .filter(({ c }) => c.pareto)
    .sort((a, b) => a.c.cost.per_1000_cases! - b.c.cost.per_1000_cases!);
  const line =
    frontier.length > 1
      ? `<polyline class="frontier-line" points="${frontier.map(({ c }) => `${x(c.cost.per_1000_cases!)},${y(c.pass_rate!.rate)}`).join(' ')}"/>`
      : '';
  const points = placed
    .map(({ c, index }) => {
      const px = x(c.cost.per_1000_cases!);
      const p = c.pass_rate!;
      const title = `${c.label}: ${Math.round(p.rate * 100)}% pass (95% CI ${Math.round(p.low * 100)}–${Math.round(p.high * 100)}%), ${formatUsd(c.cost.per_1000_cases!)} per 1,000 cases${c.pareto ? ', on the frontier' : ''}`;
      const anchor = px > W / 2 ? 'end' : 'start';
      const dx = anchor === 'end' ? -10 : 10;
      return `<g class="point${c.pareto ? ' frontier' : ''}" data-candidate="${index}"><title>${escapeHtml(title)}</title><line class="ci" x1="${px}" x2="${px}" y1="${y(p.low)}" y2="${y(p.high)}"/>${c.pareto ? `<circle class="ring" cx="${px}" cy="${y(p.rate)}" r="9"/>` : ''}<circle class="dot" cx="${px}" cy="${y(p.rate)}" r="5"/><text class="label" x="${px + dx}" y="${y(p.rate) - 8}" text-anchor="${anchor}">${c.pareto ? '★ ' : ''}${escapeHtml(c.label)}</text></g>`;
    })
    .join('');
  return `<svg id="chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="cost per 1,000 cases against pass rate, one point per candidate; the frontier is marked with a star">
<line class="axis" x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(0)}" y2="${y(0)}"/><line class="axis" x1="${PAD.left}" x2="${PAD.left}" y1="${PAD.top}" y2="${y(0)}"/>
${grid}${xTicks}
<text class="axis-title" x="${(W + PAD.left) / 2}" y="${H - 6}" text-anchor="middle">cost per 1,000 cases</text>
<text class="axis-title" x="14" y="${(H - PAD.bottom) / 2}" text-anchor="middle" transform="rotate(-90 14 ${(H - PAD.bottom) / 2})">pass rate</text>
${line}${points}
</svg>${note}`;
}
