import type { CaseResult, CaseStats, Report } from '../types.js';
import { reasons } from './console.js';
import { isRegressed } from './verdict.js';
import { groupDigits } from './numbers.js';

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

function caseId(c: CaseResult): string {
  return `${c.suite}/${c.case}${c.repeat > 0 ? `#${c.repeat}` : ''}`;
}

function row(c: CaseResult): string {
  const status = isRegressed(c) && c.status === 'pass' ? 'pass (regressed)' : c.status;
  return `| ${code(caseId(c))} | ${status} | ${code(c.model ?? c.requested_model)} | ${mdText(reasons(c))} |`;
}

interface Section {
  title: string;
  cases: CaseResult[];
}

/**
 * Regressions, then failures and errors that are not regressions, then warnings to review.
 * A failed sample of a repeated case whose pass rate does not fail is noise, not a failure:
 * its case shows up under the pass rates instead.
 */
function sections(report: Report): Section[] {
  const stats = new Map(
    report.suites.flatMap((x) => x.pass_rates.map((p) => [`${x.suite}/${p.case}`, p] as const)),
  );
  const regressed: CaseResult[] = [];
  const failing: CaseResult[] = [];
  const warned: CaseResult[] = [];
  for (const c of report.cases) {
    const noise = c.status === 'fail' && stats.get(`${c.suite}/${c.case}`)?.failing === false;
    if (isRegressed(c)) regressed.push(c);
    else if (c.status === 'error' || (c.status === 'fail' && !noise)) failing.push(c);
    else if (c.drift.some((d) => d.severity === 'warn')) warned.push(c);
  }
  return [
    { title: 'Regressions', cases: regressed },
    { title: 'Failures and errors', cases: failing },
    { title: 'Drift to review', cases: warned },
  ];
}

const pct = (x: number) => `${Math.round(x * 100)}%`;

/** Repeated cases worth a look (failing, dropped or flaky), failing first. */
function passRateRows(report: Report): string[] {
  const notable = report.suites.flatMap((x) =>
    x.pass_rates
      .filter((p) => p.failing || p.verdict === 'dropped' || p.verdict === 'flaky')
      .map((p) => ({ suite: x.suite, p })),
  );
  notable.sort((a, b) => Number(b.p.failing) - Number(a.p.failing));
  return notable.map(({ suite, p }: { suite: string; p: CaseStats }) => {
    const base = p.baseline ? `${p.baseline.pass}/${p.baseline.total}` : '—';
    return `| ${code(`${suite}/${p.case}`)} | ${p.samples.pass}/${p.samples.total} (${pct(p.rate)}, CI ${pct(p.interval.low)}–${pct(p.interval.high)}) | ${base} | ${p.p ?? '—'} | ${p.verdict}${p.failing ? ' ❌' : ''} |`;
  });
}

function head(report: Report): string[] {
  const r = report.run;
  const s = report.summary;
  const verdict = VERDICTS[r.exit_code] ?? '⏹️ INTERRUPTED';
  const found = [
    s.regressed && `${s.regressed} regressed`,
    s.failed && `${s.failed} failed`,
    s.errored && `${s.errored} errored`,
    s.drifted && `${s.drifted} drifted`,
    s.not_run && `${s.not_run} not run`,
  ].filter(Boolean);
  const tokens = report.cases.reduce((n, c) => n + (c.usage?.total_tokens ?? 0), 0);
  const costs = report.cases.map((c) => c.usage?.cost).filter((x): x is number => typeof x === 'number');
  const cost = costs.length ? ` · cost ${Number(costs.reduce((a, b) => a + b, 0).toPrecision(4))}` : '';
  const models = report.suites.map(
    (x) =>
      `${mdText(x.suite)} (${mdText(x.service)}): ${x.models.length ? x.models.map(code).join(', ') : code(x.requested_model)}`,
  );
  return [
    `## ${verdict} — driftcheck${found.length ? `: ${found.join(', ')}` : ''}`,
    '',
    `Run ${code(r.id)} · ${r.status} · exit ${r.exit_code} · ${s.total} samples · ${groupDigits(tokens)} tokens${cost}${r.sim ? ' · embedded simulator' : ''}${r.candidate_model ? ` · candidate ${code(r.candidate_model)}` : ''}`,
    ...(r.stop_reason
      ? ['', `**Stopped on** ${mdText(r.stop_reason.kind)}: ${mdText(r.stop_reason.message)}`]
      : []),
    '',
    `**Models:** ${models.join(' · ') || 'none'}`,
    '',
    '| total | passed | failed | errored | regressed | drifted | not run |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    `| ${s.total} | ${s.passed} | ${s.failed} | ${s.errored} | ${s.regressed} | ${s.drifted} | ${s.not_run} |`,
  ];
}

function render(report: Report, found: Section[], maxRows: number, reportUrl: string | undefined): string {
  const lines = head(report);
  let budget = maxRows;
  let left = 0;
  const suiteDrift = report.suites.flatMap((x) =>
    x.drift.map((d) => `- ${mdText(x.suite)}: ${mdText(d.message)}`),
  );
  for (const { title, cases } of found) {
    if (cases.length === 0) continue;
    lines.push('', `### ${title} (${cases.length})`, '');
    const shown = cases.slice(0, Math.max(0, budget));
    budget -= shown.length;
    left += cases.length - shown.length;
    if (shown.length === 0) {
      lines.push(`… ${cases.length} not listed here.`);
      continue;
    }
    lines.push('| case | status | model | why |', '| --- | --- | --- | --- |', ...shown.map(row));
    if (shown.length < cases.length) lines.push('', `… and ${cases.length - shown.length} more.`);
  }
  const rates = passRateRows(report);
  if (rates.length > 0) {
    const shown = rates.slice(0, Math.max(0, budget));
    budget -= shown.length;
    left += rates.length - shown.length;
    lines.push('', `### Pass rates of repeated cases (${rates.length})`, '');
    if (shown.length > 0)
      lines.push(
        '| case | samples (95% CI) | baseline | p | verdict |',
        '| --- | --- | --- | --- | --- |',
        ...shown,
      );
    if (shown.length < rates.length) lines.push('', `… and ${rates.length - shown.length} more.`);
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
  const maxBytes = options.maxBytes ?? 60_000;
  let rows = Math.max(0, options.maxRows ?? 30);
  const found = sections(report);
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
