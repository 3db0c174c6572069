import { join } from 'node:path';
import { formatUsd } from '../util/numbers.js';
import { candidateLabel } from '../fold/provenance.js';
import { COUNT_WORDS, isRegressed, statusWord } from '../core/words.js';
import type { CaseEntry, Report, ReportHead } from '../stored/report/types.js';
import { writeFileAtomic } from '../util/atomic.js';
import { reasons, samplesLabel } from './console.js';
import { historyLine } from './history-strip.js';
import { countOf, groupDigits } from '../util/numbers.js';
import { verdictLabel } from './pass-rate-label.js';
import type { Reporter } from '../fold/reporter.js';
import { recheckNote } from './recheck-note.js';
import { modelStopNote } from './model-stop-note.js';
import { bailNote } from './bail-note.js';

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

function row(c: CaseEntry): string {
  const status = statusWord(c);
  const samples = samplesLabel(c);
  const history = historyLine(c.history);
  const why = history ? `${reasons(c)} — ${history}` : reasons(c);
  return `| ${code(c.id)} | ${status}${samples ? ` ${samples}` : ''} | ${code(c.model ?? c.requested_model)} | ${mdText(why, 300)} |`;
}

interface Section {
  title: string;
  /** The first cases of the section, at most as many as can be shown. */
  cases: CaseEntry[];
  /** All cases of the section. */
  count: number;
}

/** Rows kept per section while a run is folded: more than any summary shows. */
const KEPT_ROWS = 100;

/**
 * What the summary needs of the cases, collected as suites are folded and bounded: the
 * first regressions, failures and warnings to review, the notable pass rates, the totals.
 */
export class MarkdownFindings {
  readonly sections: Section[] = [
    { title: 'Regressions', cases: [], count: 0 },
    { title: 'Failures and errors', cases: [], count: 0 },
    { title: 'Drift to review', cases: [], count: 0 },
  ];
  readonly rates: { rows: string[]; count: number } = { rows: [], count: 0 };
  tokens = 0;
  cost: number | null = null;

  add(c: CaseEntry): void {
    const at = isRegressed(c)
      ? 0
      : c.status === 'error' || c.status === 'fail'
        ? 1
        : c.drift.some((d) => d.severity === 'warn')
          ? 2
          : -1;
    if (at >= 0) {
      const section = this.sections[at]!;
      section.count++;
      if (section.cases.length < KEPT_ROWS) section.cases.push(c);
    }
    const p = c.pass_rate;
    if (p && (c.status === 'fail' || p.verdict === 'dropped' || p.verdict === 'flaky')) {
      this.rates.count++;
      if (this.rates.rows.length < KEPT_ROWS) {
        const base = p.baseline ? `${p.baseline.pass}/${p.baseline.total}` : '—';
        this.rates.rows.push(
          `| ${code(c.id)} | ${c.samples.passed}/${c.samples.sent} (${pct(p.rate)}, CI ${pct(p.low)}–${pct(p.high)}) | ${base} | ${p.p ?? '—'} | ${verdictLabel(p)}${c.status === 'fail' ? ' ❌' : ''} |`,
        );
      }
    }
    this.tokens += c.stats.total_tokens;
    if (c.stats.cost !== null) this.cost = (this.cost ?? 0) + c.stats.cost;
  }
}

const pct = (x: number) => `${Math.round(x * 100)}%`;

/** summary.md's table of counts, in this order. */
const TABLE_COUNTS = ['passed', 'failed', 'errored', 'not_run', 'regressed', 'drifted'] as const;

function head(report: ReportHead, found: MarkdownFindings): string[] {
  const r = report.run;
  const s = report.summary;
  const verdict = VERDICTS[r.exit_code] ?? '⏹️ INTERRUPTED';
  const list = (['regressed', 'failed', 'errored', 'drifted', 'not_run'] as const)
    .filter((k) => s[k] > 0)
    .map((k) => `${s[k]} ${COUNT_WORDS[k]}`);
  const cost = found.cost === null ? '' : ` · cost ${formatUsd(found.cost)}`;
  const models = report.suites.map(
    (x) =>
      `${mdText(x.suite)} (${mdText(x.service)}): ${x.models.length ? x.models.map(code).join(', ') : code(x.requested_model)}${x.providers.length ? ` via ${x.providers.map(code).join(', ')}` : ''}`,
  );
  return [
    `## ${verdict} — driftcheck${list.length ? `: ${list.join(', ')}` : ''}`,
    '',
    `Run ${code(r.id)} · ${r.status} · exit ${r.exit_code} · ${countOf(s.cases, 'case')} · ${countOf(s.samples, 'sample')} · ${groupDigits(found.tokens)} tokens${cost}${r.sim ? ' · embedded simulator' : ''}${candidateLabel(r) ? ` · candidate ${code(candidateLabel(r)!)}` : ''}`,
    ...(r.skipped_suites ?? []).flatMap((x) => ['', `Skipped suite ${code(x.suite)}: ${mdText(x.reason)}`]),
    ...(r.recheck ? ['', `**Recheck:** ${mdText(recheckNote(r.recheck)!)}`] : []),
    ...(r.bail ? ['', `**Bailed:** ${mdText(bailNote(r.bail, s)!)}`] : []),
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
  findings: MarkdownFindings,
  maxRows: number,
  reportUrl: string | undefined,
): string {
  const lines = head(report, findings);
  let budget = maxRows;
  let left = 0;
  const suiteDrift = report.suites.flatMap((x) =>
    x.drift.map((d) => `- ${mdText(x.suite)}: ${mdText(d.message)}`),
  );
  for (const { title, cases, count } of findings.sections) {
    if (count === 0) continue;
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
  const rates = findings.rates.rows;
  const rateCount = findings.rates.count;
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
  const found = new MarkdownFindings();
  for (const c of report.cases) found.add(c);
  return renderMarkdownSummary(report, found, options);
}

/** The summary from findings collected as suites were folded (see markdownReporter). */
export function renderMarkdownSummary(
  report: ReportHead,
  found: MarkdownFindings,
  options: MarkdownOptions = {},
): string {
  const maxBytes = options.maxBytes ?? 60_000;
  let rows = Math.max(0, options.maxRows ?? 30);
  let text = render(report, found, rows, options.reportUrl);
  while (bytes(text) > maxBytes && rows > 0) {
    rows = Math.floor(rows * 0.7);
    text = render(report, found, rows, options.reportUrl);
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
    onCase({ entry }) {
      found.add(entry);
    },
    async onEnd(head) {
      const file = join(dir, 'summary.md');
      await writeFileAtomic(file, renderMarkdownSummary(head, found));
      return [file];
    },
  };
}
