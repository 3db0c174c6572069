import { formatUsd } from '../../baseline/usage-change.js';
import { escapeHtml } from '../../report/html/escape.js';
import type { CandidateSummary } from '../types.js';

const W = 560;
const H = 300;
const PAD = { left: 56, right: 24, top: 18, bottom: 44 };
/** Costs further apart than this are drawn on a log scale, or the cheap ones crowd at zero. */
const LOG_RATIO = 10;
/** A label's height, and its width per character, in the chart's units (12 px text). */
const LINE = 14;
const CHAR = 6.8;

/** The cost axis: linear from zero, or logarithmic between the cheapest and the dearest. */
function costScale(costs: readonly number[]): { x: (cost: number) => number; ticks: number[]; log: boolean } {
  const span = W - PAD.left - PAD.right;
  const min = Math.min(...costs);
  const max = Math.max(...costs);
  if (min > 0 && max / min >= LOG_RATIO) {
    // A little room at both ends, so no point sits on an axis.
    const lo = Math.log10(min) - 0.15;
    const hi = Math.log10(max) + 0.15;
    const x = (cost: number) => PAD.left + ((Math.log10(cost) - lo) / (hi - lo)) * span;
    return { x, ticks: [min, Math.sqrt(min * max), max], log: true };
  }
  const top = max * 1.1 || 1;
  return { x: (cost) => PAD.left + (cost / top) * span, ticks: [0, top / 2, top], log: false };
}

/**
 * Where each label goes: beside its point, moved down a line while it would overlap one
 * already placed (candidates of about one cost and pass rate would print over each other).
 */
function placeLabels(
  points: { x: number; y: number; text: string }[],
): { x: number; y: number; anchor: string }[] {
  const boxes: { left: number; right: number; y: number }[] = [];
  return points.map((p) => {
    const anchor = p.x > W / 2 ? 'end' : 'start';
    const width = p.text.length * CHAR;
    const left = anchor === 'end' ? p.x - 10 - width : p.x + 10;
    let y = p.y - 8;
    while (boxes.some((b) => Math.abs(b.y - y) < LINE && b.left < left + width && left < b.right)) y += LINE;
    boxes.push({ left, right: left + width, y });
    return { x: anchor === 'end' ? p.x - 10 : p.x + 10, y, anchor };
  });
}

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
  const cost = (c: CandidateSummary) => c.cost.per_1000_cases!;
  const scale = costScale(placed.map(({ c }) => cost(c)));
  const x = scale.x;
  const y = (rate: number) => PAD.top + (1 - rate) * (H - PAD.top - PAD.bottom);
  const grid = [0, 0.25, 0.5, 0.75, 1]
    .map(
      (t) =>
        `<line class="grid" x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(t)}" y2="${y(t)}"/><text class="tick" x="${PAD.left - 6}" y="${y(t) + 4}" text-anchor="end">${t * 100}%</text>`,
    )
    .join('');
  // The outer ticks' texts end inside the box.
  const anchors = ['start', 'middle', 'end'];
  const xTicks = scale.ticks
    .map(
      (t, i) =>
        `<text class="tick" x="${x(t)}" y="${H - PAD.bottom + 16}" text-anchor="${anchors[i]}">${escapeHtml(formatUsd(t))}</text>`,
    )
    .join('');
  const frontier = placed.filter(({ c }) => c.pareto).sort((a, b) => cost(a.c) - cost(b.c));
  const line =
    frontier.length > 1
      ? `<polyline class="frontier-line" points="${frontier.map(({ c }) => `${x(cost(c))},${y(c.pass_rate!.rate)}`).join(' ')}"/>`
      : '';
  const texts = placed.map(({ c }) => `${c.pareto ? '★ ' : ''}${c.label}`);
  const labels = placeLabels(
    placed.map(({ c }, i) => ({ x: x(cost(c)), y: y(c.pass_rate!.rate), text: texts[i]! })),
  );
  const points = placed
    .map(({ c, index }, i) => {
      const px = x(cost(c));
      const p = c.pass_rate!;
      const label = labels[i]!;
      const title = `${c.label}: ${Math.round(p.rate * 100)}% pass (95% CI ${Math.round(p.low * 100)}–${Math.round(p.high * 100)}%), ${formatUsd(cost(c))} per 1,000 cases${c.pareto ? ', on the frontier' : ''}`;
      return `<g class="point${c.pareto ? ' frontier' : ''}" data-candidate="${index}"><title>${escapeHtml(title)}</title><line class="ci" x1="${px}" x2="${px}" y1="${y(p.low)}" y2="${y(p.high)}"/>${c.pareto ? `<circle class="ring" cx="${px}" cy="${y(p.rate)}" r="9"/>` : ''}<circle class="dot" cx="${px}" cy="${y(p.rate)}" r="5"/><text class="label" x="${label.x}" y="${label.y}" text-anchor="${label.anchor}">${escapeHtml(texts[i]!)}</text></g>`;
    })
    .join('');
  const axis = `cost per 1,000 cases${scale.log ? ' (log scale)' : ''}`;
  return `<svg id="chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="cost per 1,000 cases against pass rate, one point per candidate; the frontier is marked with a star">
<line class="axis" x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(0)}" y2="${y(0)}"/><line class="axis" x1="${PAD.left}" x2="${PAD.left}" y1="${PAD.top}" y2="${y(0)}"/>
${grid}${xTicks}
<text class="axis-title" x="${(W + PAD.left) / 2}" y="${H - 6}" text-anchor="middle">${axis}</text>
<text class="axis-title" x="14" y="${(H - PAD.bottom) / 2}" text-anchor="middle" transform="rotate(-90 14 ${(H - PAD.bottom) / 2})">pass rate</text>
${line}${points}
</svg>${note}`;
}
