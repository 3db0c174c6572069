import { formatUsd } from '../../util/numbers.js';
import { escapeHtml } from '../../report/html/escape.js';
import type { CandidateSummary } from '../types.js';
import { type ChartInput, chartTree, type SvgNode } from './chart-tree.js';

/** The size the page is written with (its script draws the chart again at the width it is shown). */
const WIDTH = 560;
const CHART_HEIGHT = 300;
/** Costs further apart than this are drawn on a log scale, or the cheap ones crowd at zero. */
const LOG_RATIO = 10;

/**
 * What the chart draws, whatever its width: one point per candidate with a known cost and
 * pass rate (the frontier is compareRuns' `pareto`), and the cost axis — linear from zero,
 * or logarithmic between the cheapest and the dearest — with its ticks' texts. Null when no
 * candidate can be placed.
 */
function chartInput(candidates: readonly CandidateSummary[]): ChartInput | null {
  const points = candidates.flatMap((c, index) => {
    const cost = c.cost.per_1000_cases;
    const p = c.pass_rate;
    if (cost === null || p === null) return [];
    return [
      {
        index,
        cost,
        rate: p.rate,
        low: p.low,
        high: p.high,
        pareto: c.pareto === true,
        text: `${c.pareto ? '★ ' : ''}${c.label}`,
        title: `${c.label}: ${Math.round(p.rate * 100)}% pass (95% CI ${Math.round(p.low * 100)}–${Math.round(p.high * 100)}%), ${formatUsd(cost)} per 1,000 cases${c.pareto ? ', on the frontier' : ''}`,
      },
    ];
  });
  if (points.length === 0) return null;
  const min = Math.min(...points.map((p) => p.cost));
  const max = Math.max(...points.map((p) => p.cost));
  const log = min > 0 && max / min >= LOG_RATIO;
  const top = max * 1.1 || 1;
  const values = log ? [min, Math.sqrt(min * max), max] : [0, top / 2, top];
  return {
    points,
    log,
    ticks: values.map((value) => ({ value, text: formatUsd(value) })),
    axis: `cost per 1,000 cases${log ? ' (log scale)' : ''}`,
  };
}

/** An SVG tree as markup: every attribute and text escaped. */
function svgMarkup(n: SvgNode): string {
  const attrs = Object.entries(n.attrs)
    .map(([k, v]) => ` ${k}="${escapeHtml(String(v))}"`)
    .join('');
  const inner = `${n.text === undefined ? '' : escapeHtml(n.text)}${(n.children ?? []).map(svgMarkup).join('')}`;
  return `<${n.tag}${attrs}>${inner}</${n.tag}>`;
}

/**
 * The cost-versus-pass-rate chart as inline SVG drawn at a default width (no script
 * needed to see it), and what the page's script draws it again from at the width it is
 * shown (its box's `data-chart`, inert JSON). Presentation attributes only: the page's CSP allows no
 * inline style attribute.
 */
export function costChart(candidates: readonly CandidateSummary[]): string {
  const input = chartInput(candidates);
  const unplaced = candidates.filter((_, i) => !input?.points.some((p) => p.index === i));
  const note = unplaced.length
    ? `<p class="muted" id="chart-unplaced">Not on the chart (no cost reported): ${unplaced.map((c) => escapeHtml(c.label)).join(', ')}.</p>`
    : '';
  if (!input)
    return `<p class="muted" id="chart-empty">No candidate reported a cost: the cost-versus-pass-rate chart needs one.</p>${note}`;
  return `<div id="chart-box" data-chart="${escapeHtml(JSON.stringify(input))}">${svgMarkup(chartTree(input, WIDTH, CHART_HEIGHT))}</div>${note}`;
}
