import { join } from 'node:path';
import { formatUsd } from '../util/numbers.js';
import { candidateLabel } from '../fold/provenance.js';
import { COUNT_WORDS, statusWord } from '../core/words.js';
import type { Report, ReportHead } from '../stored/report/types.js';
import { type FoldedCase, publishReport } from '../fold/published.js';
import {
  countOf as classCount,
  RATE_ORDER,
  type RateConcern,
  REVIEW_ORDER,
  type ReviewClass,
  Shortlist,
} from '../fold/review.js';
import type { Totals } from '../fold/totals.js';
import { writeFileAtomic } from '../util/atomic.js';
import { reasons, samplesLabel } from './console.js';
import { historyLine } from './history-strip.js';
import { countOf, groupDigits } from '../util/numbers.js';
import { verdictLabel } from './pass-rate-label.js';
import type { Reporter } from '../fold/reporter.js';
import { recheckNote } from './recheck-note.js';
import { modelStopNote } from './model-stop-note.js';
import { bailNote } from './bail-note.js';
import { unjudgedNote } from './unjudged-note.js';

export interface MarkdownOptions {
  /** Case rows across all sections (default 30); the rest become "… and N more". */
  maxRows?: number;
  /** Hard cap on the UTF-8 size (default 60,000 bytes: under GitHub's 65,536-character comment limit). */
  maxBytes?: number;
  /** Where the full report lives (an http(s) URL or a relative path), linked at the end. */
  reportUrl?: string;
}

const CELL_CHARS = 200;

const VERDICTS: Record<number, string> = {
  0: '✅ PASS',
  1: '❌ FAIL',
  2: '❌ ERROR',
  3: '⏸️ PAUSED',
  4: '⛔ STOPPED',
  137: '⏹️ KILLED',
};

/**
 * Untrusted text for a table cell or a line: one line, clipped, with markdown and HTML
 * escaped, and @mentions and #references broken (a zero-width space) so a model's
 * answer cannot ping people or cross-link issues from a pull-request comment.
 */
export function mdText(text: string, limit = CELL_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const clipped = flat.length > limit ? `${flat.slice(0, limit - 1)}…` : flat;
  return clipped
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\`*_[\]|~!]/g, (ch) => `\\${ch}`)
    .replace(/@/g, '@\u200b')
    .replace(/#(?=\w)/g, '#\u200b');
}

/** An identifier in a code span, or escaped text when it holds what a code span cannot. */
function code(text: string): string {
  return /^[^`|\n\r]+$/.test(text) && text.length <= CELL_CHARS ? `\`${text}\`` : mdText(text);
}

/** The link target, percent-encoded so it cannot end the link early; null for anything but http(s) or a path. */
function safeUrl(url: string): string | null {
  if (!/^(https?:\/\/|\.{0,2}\/|[\w.-]+(\/|$))/i.test(url)) return null;
  let decoded = url;
  try {
    decoded = decodeURI(url);
  } catch {
    // Not valid percent-encoding: encode it as it stands.
  }
  return encodeURI(decoded).replace(/[()]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
}

function row({ entry: c, review }: FoldedCase): string {
  const status = statusWord(c);
  const samples = samplesLabel(c);
  const history = historyLine(c.history);
  const why = history ? `${reasons(c, review)} — ${history}` : reasons(c, review);
  return `| ${code(c.id)} | ${status}${samples ? ` ${samples}` : ''} | ${code(c.model ?? c.requested_model)} | ${mdText(why, 300)} |`;
}

/**
 * summary.md's sections, each the review classes it lists (fold/review.ts), in the fold's
 * order; a section of two classes lists them in plan order.
 */
const SECTIONS: readonly { title: string; classes: readonly ReviewClass[] }[] = [
  { title: 'Regressions', classes: ['regressed'] },
  { title: 'Failures and errors', classes: ['errored', 'failed'] },
  { title: 'Drift to review', classes: ['drift_warn'] },
];

/** The repeated cases whose pass rates summary.md lists (in plan order): failing, dropped, flaky. */
const RATES: readonly RateConcern[] = ['failing', 'dropped', 'flaky'];

/** Rows kept per class while a run is folded: more than any summary shows. */
const KEPT_ROWS = 100;

/**
 * What the summary needs of the cases, collected as suites are folded and bounded: the
 * first regressions, failures and warnings to review, and the rows of the notable pass
 * rates. Which class a case is in is the fold's; so are the counts (Totals).
 */
export class MarkdownFindings {
  readonly cases = new Shortlist<ReviewClass, FoldedCase>(REVIEW_ORDER, KEPT_ROWS);
  readonly rates = new Shortlist<RateConcern, string>(RATE_ORDER, KEPT_ROWS);

  add(folded: FoldedCase): void {
    const { entry: c, review, rate } = folded;
    if (SECTIONS.some((s) => s.classes.includes(review))) this.cases.add(review, folded);
    const p = c.pass_rate;
    if (p && rate && RATES.includes(rate)) {
      const base = p.baseline ? `${p.baseline.pass}/${p.baseline.total}` : '—';
      this.rates.add(
        rate,
        `| ${code(c.id)} | ${c.samples.passed}/${c.samples.sent} (${pct(p.rate)}, CI ${pct(p.low)}–${pct(p.high)}) | ${base} | ${p.p ?? '—'} | ${verdictLabel(p)}${rate === 'failing' ? ' ❌' : ''} |`,
      );
    }
  }
}

const pct = (x: number) => `${Math.round(x * 100)}%`;

/** summary.md's table of counts, in this order. */
const TABLE_COUNTS = ['passed', 'failed', 'errored', 'not_run', 'regressed', 'drifted'] as const;

function head(report: ReportHead, totals: Totals): string[] {
  const r = report.run;
  const s = report.summary;
  const verdict = VERDICTS[r.exit_code] ?? '⏹️ INTERRUPTED';
  const list = (['regressed', 'failed', 'errored', 'drifted', 'not_run'] as const)
    .filter((k) => s[k] > 0)
    .map((k) => `${s[k]} ${COUNT_WORDS[k]}`);
  const cost = totals.cost === null ? '' : ` · cost ${formatUsd(totals.cost)}`;
  const models = report.suites.map(
    (x) =>
      `${mdText(x.suite)} (${mdText(x.service)}): ${x.models.length ? x.models.map(code).join(', ') : code(x.requested_model)}${x.providers.length ? ` via ${x.providers.map(code).join(', ')}` : ''}`,
  );
  return [
    `## ${verdict} — driftcheck${list.length ? `: ${list.join(', ')}` : ''}`,
    '',
    `Run ${code(r.id)} · ${r.status} · exit ${r.exit_code} · ${countOf(s.cases, 'case')} · ${countOf(s.samples, 'sample')} · ${groupDigits(totals.tokens.total)} tokens${cost}${r.sim ? ' · embedded simulator' : ''}${candidateLabel(r) ? ` · candidate ${code(candidateLabel(r)!)}` : ''}`,
    ...(r.skipped_suites ?? []).flatMap((x) => ['', `Skipped suite ${code(x.suite)}: ${mdText(x.reason)}`]),
    ...(r.recheck ? ['', `**Recheck:** ${mdText(recheckNote(r.recheck)!)}`] : []),
    ...(r.bail ? ['', `**Bailed:** ${mdText(bailNote(r.bail, s)!)}`] : []),
    ...(r.unjudged_steps ? ['', `**Unjudged steps:** ${mdText(unjudgedNote(r.unjudged_steps)!)}`] : []),
    ...(r.stop_reason
      ? ['', `**Stopped on** ${mdText(r.stop_reason.kind)}: ${mdText(r.stop_reason.message)}`]
      : []),
    ...(r.model_stops ?? []).flatMap((stop) => ['', `**Stopped:** ${mdText(modelStopNote(stop), 600)}`]),
    '',
    `**Models:** ${models.join(' · ') || 'none'}`,
    '',
    `| cases | ${TABLE_COUNTS.map((k) => COUNT_WORDS[k]).join(' | ')} | samples |`,
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    `| ${s.cases} | ${TABLE_COUNTS.map((k) => s[k]).join(' | ')} | ${s.samples} |`,
  ];
}

function render(
  report: ReportHead,
  totals: Totals,
  findings: MarkdownFindings,
  maxRows: number,
  reportUrl: string | undefined,
): string {
  const lines = head(report, totals);
  let budget = maxRows;
  let left = 0;
  const suiteDrift = report.suites.flatMap((x) =>
    x.drift.map((d) => `- ${mdText(x.suite)}: ${mdText(d.message)}`),
  );
  for (const { title, classes } of SECTIONS) {
    const count = classCount(totals.review, classes);
    if (count === 0) continue;
    const cases = findings.cases.inPlanOrder(classes).slice(0, KEPT_ROWS);
    lines.push('', `### ${title} (${count})`, '');
    const shown = cases.slice(0, Math.max(0, budget));
    budget -= shown.length;
    left += count - shown.length;
    if (shown.length === 0) {
      lines.push(`… ${count} not listed here.`);
      continue;
    }
    lines.push('| case | status | model | why |', '| --- | --- | --- | --- |', ...shown.map(row));
    if (shown.length < count) lines.push('', `… and ${count - shown.length} more.`);
  }
  const rates = findings.rates.inPlanOrder(RATES).slice(0, KEPT_ROWS);
  const rateCount = classCount(totals.rates, RATES);
  if (rateCount > 0) {
    const shown = rates.slice(0, Math.max(0, budget));
    budget -= shown.length;
    left += rateCount - shown.length;
    lines.push('', `### Pass rates of repeated cases (${rateCount})`, '');
    if (shown.length > 0)
      lines.push(
        '| case | samples (95% CI) | baseline | p | verdict |',
        '| --- | --- | --- | --- | --- |',
        ...shown,
      );
    if (shown.length < rateCount) lines.push('', `… and ${rateCount - shown.length} more.`);
  }
  if (suiteDrift.length > 0) {
    const shown = suiteDrift.slice(0, Math.max(0, budget));
    left += suiteDrift.length - shown.length;
    lines.push('', `### Suite drift (${suiteDrift.length})`, '', ...shown);
    if (shown.length < suiteDrift.length) lines.push(`- … and ${suiteDrift.length - shown.length} more.`);
  }
  const url = reportUrl === undefined ? null : safeUrl(reportUrl);
  if (left > 0 || url) {
    lines.push(
      '',
      [
        left > 0 ? `${left} more finding${left === 1 ? '' : 's'} not listed.` : '',
        url ? `[Full report](${url})` : 'See report.json for all of them.',
      ]
        .filter(Boolean)
        .join(' '),
    );
  }
  return `${lines.join('\n')}\n`;
}

const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

/**
 * `summary.md` for a pull-request comment or $GITHUB_STEP_SUMMARY: verdict, counts and
 * models, then regressions, failures and warnings (in that order), never longer than
 * `maxRows` rows or `maxBytes` bytes.
 */
export function renderMarkdown(report: Report, options: MarkdownOptions = {}): string {
  const published = publishReport(report);
  const found = new MarkdownFindings();
  for (const c of published.cases) found.add(c);
  return renderMarkdownSummary(published.head, published.totals, found, options);
}

/** The summary from findings collected as suites were folded (see markdownReporter) and the run's totals. */
export function renderMarkdownSummary(
  report: ReportHead,
  totals: Totals,
  found: MarkdownFindings,
  options: MarkdownOptions = {},
): string {
  const maxBytes = options.maxBytes ?? 60_000;
  let rows = Math.max(0, options.maxRows ?? 30);
  let text = render(report, totals, found, rows, options.reportUrl);
  while (bytes(text) > maxBytes && rows > 0) {
    rows = Math.floor(rows * 0.7);
    text = render(report, totals, found, rows, options.reportUrl);
  }
  if (bytes(text) <= maxBytes) return text;
  // Only the fixed part (a huge model list) can still be too long: cut at a line end.
  const note = '\n… (summary cut to fit; see report.json)\n';
  const cut = Buffer.from(text, 'utf8')
    .subarray(0, maxBytes - bytes(note))
    .toString('utf8');
  return `${cut.slice(0, Math.max(0, cut.lastIndexOf('\n')))}${note}`;
}

/** Writes `summary.md` once the run is folded, from findings collected suite by suite. */
export function markdownReporter(dir: string): Reporter {
  const found = new MarkdownFindings();
  return {
    onCase(c) {
      found.add(c);
    },
    async onEnd(head, totals) {
      const file = join(dir, 'summary.md');
      await writeFileAtomic(file, renderMarkdownSummary(head, totals, found));
      return [file];
    },
  };
}
