import { formatUsd } from '../../util/numbers.js';
import { escapeHtml } from '../../report/html/escape.js';
import type { CandidateSummary } from '../types.js';
import { type ChartInput, chartTree, type SvgNode } from './chart-tree.js';

/** The size the page is written with (its script draws the chart again at the width it is shown). */
const WIDTH = 560;
const CHART_HEIGHT = 300;
/** Values further apart than this are drawn on a log scale, or the low ones crowd at zero. */
const LOG_RATIO = 10;

/**
 * What the chart's horizontal axis can be, each a figure compareRuns gave every candidate:
 * its cost per 1,000 cases (the frontier is compareRuns' `pareto`, by cost), or its streamed
 * samples' median time to first token.
 */
const AXES = {
  cost: {
    value: (c: CandidateSummary) => c.cost.per_1000_cases,
    text: (v: number) => formatUsd(v),
    axis: 'cost per 1,000 cases',
    pick: 'cost per 1,000 cases',
    title: 'Cost against pass rate (★ on the frontier: no other candidate is cheaper and better)',
    label:
      'cost per 1,000 cases against pass rate, one point per candidate; the frontier is marked with a star',
    missing: 'no cost reported',
    frontier: true,
  },
  ttft: {
    value: (c: CandidateSummary) => c.ttft_ms?.p50 ?? null,
    text: (v: number) => `${Math.round(v)} ms`,
    axis: 'time to first token p50 (ms)',
    pick: 'time to first token p50',
    title: "Time to first token against pass rate (the median of each candidate's streamed samples)",
    label: 'median time to first token against pass rate, one point per candidate',
    missing: 'not streamed',
    frontier: false,
  },
} as const;

type ChartAxis = keyof typeof AXES;

/**
 * What the chart draws on one axis, whatever its width: one point per candidate with a
 * value there and a pass rate, and the axis — linear from zero, or logarithmic between the
 * lowest and the highest — with its ticks' texts. Null when no candidate can be placed.
 */
function chartInput(candidates: readonly CandidateSummary[], key: ChartAxis): ChartInput | null {
  const a = AXES[key];
  const points = candidates.flatMap((c, index) => {
    const value = a.value(c);
    const p = c.pass_rate;
    if (value === null || p === null) return [];
    const pareto = a.frontier && c.pareto === true;
    return [
      {
        index,
        x: value,
        rate: p.rate,
        low: p.low,
        high: p.high,
        pareto,
        text: `${pareto ? '★ ' : ''}${c.label}`,
        title: `${c.label}: ${Math.round(p.rate * 100)}% pass (95% CI ${Math.round(p.low * 100)}–${Math.round(p.high * 100)}%), ${key === 'cost' ? `${a.text(value)} per 1,000 cases` : `time to first token p50 ${a.text(value)}`}${pareto ? ', on the frontier' : ''}`,
      },
    ];
  });
  if (points.length === 0) return null;
  const min = Math.min(...points.map((p) => p.x));
  const max = Math.max(...points.map((p) => p.x));
  const log = min > 0 && max / min >= LOG_RATIO;
  const top = max * 1.1 || 1;
  const values = log ? [min, Math.sqrt(min * max), max] : [0, top / 2, top];
  const unplaced = candidates.filter((_, i) => !points.some((p) => p.index === i));
  return {
    points,
    log,
    ticks: values.map((value) => ({ value, text: a.text(value) })),
    axis: `${a.axis}${log ? ' (log scale)' : ''}`,
    label: a.label,
    title: a.title,
    unplaced: unplaced.length
      ? `Not on the chart (${a.missing}): ${unplaced.map((c) => c.label).join(', ')}.`
      : null,
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
 * The chart of pass rate against cost — or, when some candidate streamed, against the axis
 * the reader picks (cost, or time to first token) — as inline SVG drawn at a default width
 * (no script needed to see the first), with its heading and what it could not place; and
 * what the page's script draws again from at the width it is shown or on another axis (its
 * box's `data-charts`, inert JSON). Presentation attributes only: the page's CSP allows no
 * inline style attribute.
 */
export function pickableChart(candidates: readonly CandidateSummary[]): string {
  const inputs = { cost: chartInput(candidates, 'cost'), ttft: chartInput(candidates, 'ttft') };
  const first: ChartAxis = inputs.cost || !inputs.ttft ? 'cost' : 'ttft';
  const input = inputs[first];
  // Another axis to pick only when some candidate streamed (a time to first token to place).
  const picks = (Object.keys(AXES) as ChartAxis[]).filter((k) => k === 'cost' || inputs[k] !== null);
  const picker =
    picks.length > 1
      ? `<label class="axis-pick">horizontal axis <select id="chart-axis" disabled>${picks.map((k) => `<option value="${k}"${k === first ? ' selected' : ''}>${escapeHtml(AXES[k].pick)}</option>`).join('')}</select></label>`
      : '';
  const heading = `<h2 class="sub" id="chart-title">${escapeHtml(input?.title ?? AXES.cost.title)}</h2>${picker}`;
  if (!input)
    return `${heading}<p class="muted" id="chart-empty">No candidate reported a cost: the cost-versus-pass-rate chart needs one.</p>${unplacedNote(chartUnplaced(candidates))}`;
  return `${heading}<div id="chart-box" data-chart="${escapeHtml(JSON.stringify(first))}" data-charts="${escapeHtml(JSON.stringify(inputs))}">${svgMarkup(chartTree(input, WIDTH, CHART_HEIGHT))}</div>${unplacedNote(input.unplaced)}`;
}

/** What the cost chart says when no candidate reported one: every candidate is unplaced. */
function chartUnplaced(candidates: readonly CandidateSummary[]): string | null {
  return candidates.length
    ? `Not on the chart (${AXES.cost.missing}): ${candidates.map((c) => c.label).join(', ')}.`
    : null;
}

/** The line under the chart naming the candidates it could not place (its script rewrites it per axis). */
function unplacedNote(text: string | null): string {
  return `<p class="muted" id="chart-unplaced"${text === null ? ' hidden' : ''}>${text === null ? '' : escapeHtml(text)}</p>`;
}
