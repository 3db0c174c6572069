import { candidateLabel } from '../../fold/provenance.js';
import { COUNT_WORDS } from '../../core/words.js';
import type { DriftKind } from '../../record/drift-kinds.js';
import type { PassRate, ReportHead, RunInfo } from '../../stored/report/types.js';
import type { FoldedCase } from '../../fold/published.js';
import { countOf, RATE_ORDER, type RateConcern, Shortlist } from '../../fold/review.js';
import type { Totals } from '../../fold/totals.js';
import { formatUsd } from '../../util/numbers.js';
import { escapeHtml as h } from './escape.js';
import { groupDigits } from '../../util/numbers.js';
import { verdictLabel } from '../pass-rate-label.js';
import { compareText } from '../../util/compare-text.js';
import { recheckNote } from '../recheck-note.js';
import { exitsForModelStops, MODEL_STOP_VERDICT, modelStopNote } from '../model-stop-note.js';
import { bailNote } from '../bail-note.js';
import { unjudgedNote } from '../unjudged-note.js';

const VERDICTS = {
  0: { word: 'PASS', tone: 'ok', text: 'no failure, no regression' },
  1: { word: 'FAIL', tone: 'bad', text: 'failures, errors or regressions' },
  2: { word: 'ERROR', tone: 'bad', text: 'a configuration problem stopped the run' },
  3: { word: 'PAUSED', tone: 'warn', text: 'budget or credit condition; continue with --resume' },
  4: { word: 'STOPPED', tone: 'bad', text: 'authentication or permission failure' },
  137: {
    word: 'KILLED',
    tone: 'warn',
    text: 'no end record in the journal (killed or crashed); continue with --resume',
  },
} as const;
const INTERRUPTED = {
  word: 'INTERRUPTED',
  tone: 'warn',
  text: 'stopped by a signal; continue with --resume',
} as const;

/** A run's verdict by its exit code, as the page's bar shows it: the word, its tone and why. */
export function runVerdict(
  code: number,
  run?: Pick<RunInfo, 'exit_code' | 'stop_reason' | 'model_stops'>,
): { word: string; tone: string; text: string } {
  if (run && exitsForModelStops(run)) return { ...VERDICTS[2], text: MODEL_STOP_VERDICT };
  return code in VERDICTS ? VERDICTS[code as keyof typeof VERDICTS] : INTERRUPTED;
}

/** Status filters offered as buttons; `data-view` is what the script filters on. */
function viewButtons(report: ReportHead): string {
  const s = report.summary;
  const views: [view: string, label: string, count: number, tone: string][] = [
    ['all', 'all', s.cases, ''],
    ['regressed', COUNT_WORDS.regressed, s.regressed, 'bad'],
    ['fail', COUNT_WORDS.failed, s.failed, 'bad'],
    ['error', COUNT_WORDS.errored, s.errored, 'bad'],
    ['drifted', COUNT_WORDS.drifted, s.drifted, 'warn'],
    ['pass', COUNT_WORDS.passed, s.passed, 'ok'],
    ['not_run', COUNT_WORDS.not_run, s.not_run, 'muted'],
  ];
  return views
    .map(
      ([view, label, count, tone]) =>
        `<button type="button" class="view ${tone}" data-view="${view}" aria-pressed="${view === 'all'}"><b>${count}</b> ${label}</button>`,
    )
    .join('');
}

/** Cases per drift kind (the fold's totals), as the drift-kind filter offers them. */
function driftOptions(counts: ReadonlyMap<DriftKind, number>): string {
  const options = [...counts].sort((a, b) => compareText(a[0], b[0]));
  return [
    `<option value="">any drift kind</option>`,
    ...options.map(([kind, n]) => `<option value="${h(kind)}">${h(kind)} (${n})</option>`),
  ].join('');
}

/** The sticky bar: verdict, counts that double as status filters, drift-kind filter, search. */
export function renderBar(report: ReportHead, title: string, totals: Totals): string {
  const v = runVerdict(report.run.exit_code, report.run);
  return `<header class="bar">
<div class="verdict ${v.tone}"><span class="word">${v.word}</span><span class="title">${h(title)}</span><span class="why">${h(v.text)} · exit ${report.run.exit_code}</span></div>
<nav class="views" aria-label="filter by status">${viewButtons(report)}</nav>
<div class="tools"><input id="q" type="search" placeholder="search case id" aria-label="search case id" autocomplete="off" disabled><select id="kind" aria-label="filter by drift kind" disabled>${driftOptions(totals.drift_kinds)}</select></div>
</header>`;
}

const int = groupDigits;
/** Credits are often fractions of a cent: keep 8 decimals below 1, 4 above, without trailing zeros. */

function change(from: number, to: number): string {
  if (from === 0) return to === 0 ? '±0%' : 'from zero';
  const p = ((to - from) / from) * 100;
  if (Math.abs(p) < 0.05) return '±0%';
  return `${p > 0 ? '+' : ''}${p.toFixed(1)}%`;
}

/** Tokens and cost of this run, and against the baseline over the cases both answered (the fold's totals). */
function usageLine(totals: Totals): string {
  const { tokens, cost } = totals;
  const lines = [
    `<dt>usage</dt><dd>${int(tokens.total)} tokens (${int(tokens.prompt)} prompt, ${int(tokens.completion)} completion) over ${int(totals.samples)} samples${cost === null ? '' : ` · cost ${formatUsd(cost)}`}</dd>`,
  ];
  const compared = totals.compared;
  if (compared && compared.cases > 0) {
    const then = compared.baseline;
    const now = compared.run;
    const costChange =
      then.cost !== null && now.cost !== null
        ? ` · cost ${formatUsd(then.cost)} → ${formatUsd(now.cost)} (${change(then.cost, now.cost)})`
        : '';
    lines.push(
      `<dt>vs baseline</dt><dd>${int(then.total_tokens)} → ${int(now.total_tokens)} tokens (${change(then.total_tokens, now.total_tokens)}) over the ${int(compared.cases)} cases both answered${costChange}</dd>`,
    );
  } else lines.push(`<dt>vs baseline</dt><dd class="muted">no baseline usage to compare with</dd>`);
  return lines.join('\n');
}

function duration(from: string, to: string): string {
  const ms = Date.parse(to) - Date.parse(from);
  if (!Number.isFinite(ms) || ms < 0) return '';
  return ms < 60_000
    ? ` (${(ms / 1000).toFixed(1)} s)`
    : ` (${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s)`;
}

/** How many repeated cases the page's pass-rate table lists. */
const PASS_RATE_ROWS = 50;

/** A repeated case as the pass-rate table shows it. */
interface PassRateRow {
  id: string;
  failing: boolean;
  samples: { pass: number; total: number };
  rate: PassRate;
}

/** The repeated cases the pass-rate table lists: the first of each of the fold's pass-rate concerns. */
export class PassRateRows {
  readonly rows = new Shortlist<RateConcern, PassRateRow>(RATE_ORDER, PASS_RATE_ROWS);

  add({ entry: c, rate }: FoldedCase): void {
    if (!rate || !c.pass_rate) return;
    this.rows.add(rate, {
      id: c.id,
      failing: rate === 'failing',
      samples: { pass: c.samples.passed, total: c.samples.sent },
      rate: c.pass_rate,
    });
  }
}

/** Repeated cases with their pass rates, in the fold's order: failing first, then dropped, flaky, new, stable. */
function passRateTable(kept: PassRateRows, totals: Totals): string {
  const rows = kept.rows.worstFirst();
  if (rows.length === 0) return '';
  const repeated = countOf(totals.rates, RATE_ORDER);
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  const body = rows
    .slice(0, PASS_RATE_ROWS)
    .map(({ id, failing, samples, rate: p }) => {
      const tone = failing ? 'bad' : p.verdict === 'stable' || p.verdict === 'new' ? '' : 'warn';
      const base = p.baseline ? `${p.baseline.pass}/${p.baseline.total}` : '—';
      return `<tr><td><code>${h(id)}</code></td><td>${samples.pass}/${samples.total}</td><td>${pct(p.rate)} (${pct(p.low)}–${pct(p.high)})</td><td>${base}</td><td>${p.p ?? '—'}</td><td class="${tone}">${h(verdictLabel(p))}${failing ? ', failing' : ''}</td></tr>`;
    })
    .join('');
  const more =
    repeated > PASS_RATE_ROWS
      ? `<p class="muted">… and ${repeated - PASS_RATE_ROWS} more repeated cases in report.json.</p>`
      : '';
  return `<h2 class="sub">Pass rates of repeated cases</h2><div class="scroll"><table class="rates"><thead><tr><th>case</th><th>passed</th><th>rate (95% CI)</th><th>baseline</th><th>p</th><th>verdict</th></tr></thead><tbody>${body}</tbody></table></div>${more}`;
}

/** Run facts, services with their requested and concrete models, usage, and suite-level drift. */
export function renderRunInfo(report: ReportHead, totals: Totals, rates: PassRateRows): string {
  const r = report.run;
  const facts = [
    `<dt>run</dt><dd><code>${h(r.id)}</code> · ${h(r.status)}${r.sim ? ' · embedded simulator' : ''}${r.shard ? ` · shard ${r.shard.index}/${r.shard.total}` : ''}</dd>`,
    `<dt>time</dt><dd>${h(r.started_at)} → ${h(r.finished_at)}${duration(r.started_at, r.finished_at)}</dd>`,
    candidateLabel(r)
      ? `<dt>candidate</dt><dd><code>${h(candidateLabel(r)!)}</code> against the current baselines</dd>`
      : '',
    ...(r.skipped_suites ?? []).map(
      (x) => `<dt>skipped</dt><dd>suite <code>${h(x.suite)}</code>: ${h(x.reason)}</dd>`,
    ),
    r.recheck ? `<dt>recheck</dt><dd class="warn">${h(recheckNote(r.recheck)!)}</dd>` : '',
    r.bail ? `<dt>bailed</dt><dd class="warn">${h(bailNote(r.bail, report.summary)!)}</dd>` : '',
    r.unjudged_steps
      ? `<dt>unjudged steps</dt><dd class="warn">${h(unjudgedNote(r.unjudged_steps)!)}</dd>`
      : '',
    r.stop_reason
      ? `<dt>stopped on</dt><dd class="bad">${h(r.stop_reason.kind)}${r.stop_reason.http_status ? ` (HTTP ${r.stop_reason.http_status})` : ''}: ${h(r.stop_reason.message)}</dd>`
      : '',
    ...(r.model_stops ?? []).map((stop) => `<dt>stopped</dt><dd class="bad">${h(modelStopNote(stop))}</dd>`),
    usageLine(totals),
    `<dt>command</dt><dd><code>${h(r.command.join(' '))}</code> · driftcheck ${h(r.driftcheck_version)}</dd>`,
  ].filter(Boolean);
  const suites = report.suites
    .map((s) => {
      const models =
        s.models.length === 0
          ? '<span class="muted">none answered</span>'
          : s.models
              .map((m) => `<code class="${m === s.requested_model ? '' : 'warn'}">${h(m)}</code>`)
              .join(' ');
      const providers = s.providers.length
        ? s.providers.map((p) => `<code>${h(p)}</code>`).join(' ')
        : '<span class="muted">—</span>';
      return `<tr><td>${h(s.suite)}</td><td>${h(s.service)}</td><td><code>${h(s.requested_model)}</code></td><td>${models}</td><td>${providers}</td><td>${s.baseline === null ? '<span class="muted">none</span>' : 'yes'}</td></tr>`;
    })
    .join('');
  const table = passRateTable(rates, totals);
  const suiteDrift = report.suites.flatMap((s) =>
    s.drift.map(
      (d) =>
        `<li class="${d.severity === 'fail' ? 'bad' : d.severity === 'warn' ? 'warn' : ''}"><b>${h(s.suite)}</b> ${h(d.kind)}: ${h(d.message)}</li>`,
    ),
  );
  return `<section class="run" aria-label="run">
<dl>${facts.join('\n')}</dl>
<div class="scroll"><table class="suites"><thead><tr><th>suite</th><th>service</th><th>requested model</th><th>concrete models</th><th>providers</th><th>baseline</th></tr></thead><tbody>${suites}</tbody></table></div>
${suiteDrift.length ? `<ul class="suite-drift">${suiteDrift.join('')}</ul>` : ''}
${table}
</section>`;
}
