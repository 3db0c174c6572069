import { statusWord } from '../core/words.js';
import type { CaseEntry, Report, ReportHead, SuiteReport } from '../stored/report/types.js';
import { type FoldedCase, publishReport } from '../fold/published.js';
import type { Totals } from '../fold/totals.js';
import { errorLine, errorPlace, placeText } from '../fold/conversation.js';
import type { Drift } from '../record/drift-kinds.js';
import { verdictLabel } from './pass-rate-label.js';
import { SpooledFile } from '../util/spool.js';
import type { Reporter } from '../fold/reporter.js';
import { MAX_MESSAGE_CHARS, shorten } from '../util/shorten.js';

/** Longest answer copied into a testcase's system-out; report.json holds it whole. */
const CONTENT_CHARS = 4_000;

/**
 * Text safe for XML 1.0 content and quoted attributes: markup escaped, and characters XML
 * cannot carry at all (control characters, lone surrogates, U+FFFE/FFFF) replaced with
 * U+FFFD, so model output can never make the file unparseable.
 */
export function xmlText(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replace(/[&<>"']/g, (ch) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' }[ch]};`);
}

/** An attribute value: as xmlText, with line breaks kept as references (parsers fold raw ones to spaces). */
function attr(text: string): string {
  return xmlText(text).replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}

/** A `message` attribute: one line, as long as a message may be; the full story goes in the element's text. */
function oneLine(text: string): string {
  return shorten(text.replace(/\s+/g, ' ').trim(), MAX_MESSAGE_CHARS);
}

function clip(text: string): string {
  if (text.length <= CONTENT_CHARS) return text;
  return `${text.slice(0, CONTENT_CHARS)}… (${text.length - CONTENT_CHARS} more characters in report.json)`;
}

const seconds = (ms: number | null): string => ((ms ?? 0) / 1000).toFixed(3);

function failedChecks(c: CaseEntry): string[] {
  const sent = c.samples.sent;
  return c.checks.flatMap((k, i) => {
    const passes = c.check_passes[i] ?? 0;
    if (sent > 1)
      return passes < sent ? [`${k.type}: ${sent - passes}/${sent} samples fail (${k.message})`] : [];
    return k.pass ? [] : [`${k.type}: ${k.message}`];
  });
}

function driftLines(drift: readonly Drift[]): string[] {
  return drift.map((d) => `drift ${d.severity} ${d.kind}: ${d.message}`);
}

/** `4/5 pass (80%, 95% CI 38–96%) vs baseline 5/5, p=0.5: stable` */
export function passRateText(c: CaseEntry): string {
  const s = c.pass_rate;
  if (!s) return `${c.samples.passed}/${c.samples.sent} pass`;
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  const base = s.baseline ? ` vs baseline ${s.baseline.pass}/${s.baseline.total}` : ' (no baseline samples)';
  const p = s.p === null ? '' : `, p=${s.p}`;
  return `${c.samples.passed}/${c.samples.sent} pass (${pct(s.rate)}, 95% CI ${pct(s.low)}–${pct(s.high)})${base}${p}: ${verdictLabel(s)}${c.status === 'fail' ? ', failing' : ''}`;
}

/** The details under a failure, error or skip: what failed, what drifted, what answered. */
function details(c: CaseEntry): string {
  const lines = [
    `case: ${c.id}`,
    `status: ${statusWord(c)}`,
    `service: ${c.service}`,
    `requested model: ${c.requested_model}`,
    `concrete model: ${c.models.length ? c.models.join(', ') : 'none'}`,
  ];
  if (c.providers.length) lines.push(`provider: ${c.providers.join(', ')}`);
  if (c.samples.planned > 1 || c.samples.sent > 1) lines.push(`samples: ${passRateText(c)}`);
  if (c.error) {
    const e = c.error;
    const place = errorPlace(c);
    lines.push(`error kind: ${e.kind}`, `http status: ${e.http_status ?? 'none'}`);
    if (place) lines.push(`error at: ${placeText(place)}`);
    if (e.type) lines.push(`error type: ${e.type}`);
    if (e.code) lines.push(`error code: ${e.code}`);
    if (e.model) lines.push(`error model: ${e.model}`);
    lines.push(`error message: ${e.message}`);
  }
  lines.push(`finish_reason: ${c.finish_reason ?? 'none'}`, `attempts: ${c.stats.attempts}`);
  for (const k of c.checks) lines.push(`check ${k.pass ? 'pass' : 'FAIL'} ${k.type}: ${k.message}`);
  lines.push(...driftLines(c.drift));
  return lines.join('\n');
}

/**
 * One `<testcase>` by the case's outcome (the fold's, fold/review.ts): error for a service
 * error, failure for failed checks or regressions, skipped when not run.
 */
function testcase({ entry: c, outcome }: FoldedCase, suite: SuiteReport): string {
  const time = c.stats.latency_ms ? c.stats.latency_ms.p50 * Math.max(1, c.samples.sent) : null;
  const open = `<testcase name="${attr(c.case)}" classname="${attr(c.suite)}" time="${seconds(time)}" file="${attr(suite.file)}">`;
  const body: string[] = [];
  const regressions = c.drift.filter((d) => d.severity === 'fail' && d.kind !== 'new_error');
  if (outcome === 'error' && c.error) {
    const e = c.error;
    const message = `${errorLine(c)}${regressions.length ? ` — ${regressions.map((d) => d.message).join('; ')}` : ''}`;
    body.push(
      `<error message="${attr(oneLine(message))}" type="${attr(e.kind)}">${xmlText(details(c))}</error>`,
    );
  } else if (outcome === 'failure') {
    const reasons = [...regressions.map((d) => d.message), ...failedChecks(c)];
    const type = regressions.length > 0 ? regressions.map((d) => d.kind).join(',') : 'expectation';
    body.push(
      `<failure message="${attr(oneLine(reasons.join('; ') || 'failed'))}" type="${attr(type)}">${xmlText(details(c))}</failure>`,
    );
  } else if (outcome === 'skipped') {
    body.push(`<skipped message="not run: the run stopped before this case was sent"/>`);
  }
  // A brief case (passed, nothing changed) is a bare testcase: report.json holds its answer.
  if (c.detail !== 'brief') {
    const notes =
      outcome !== 'pass'
        ? []
        : [...(c.pass_rate ? [`pass rate ${passRateText(c)}`] : []), ...driftLines(c.drift)];
    const out = [...notes, ...(c.content === null ? [] : [`content:\n${clip(c.content)}`])];
    if (out.length > 0) body.push(`<system-out>${xmlText(out.join('\n'))}</system-out>`);
  }
  return body.length === 0
    ? `${open.slice(0, -1)}/>`
    : `${open}\n      ${body.join('\n      ')}\n    </testcase>`;
}

/** Suite-level drift that fails the run (a suite pass rate that dropped) still gets a red testcase. */
function suiteDriftCase(suite: SuiteReport, d: Drift): string {
  return `<testcase name="${attr(`(suite) ${d.kind}`)}" classname="${attr(suite.suite)}" time="0.000" file="${attr(suite.file)}">\n      <failure message="${attr(oneLine(d.message))}" type="${attr(d.kind)}"/>\n    </testcase>`;
}

/**
 * The counts of a `<testsuite>` (or of the root), from the fold's totals: each case is a
 * testcase by its outcome, and so is each failing suite-level finding, as a failure.
 */
function countAttrs({ counts, outcomes, time_ms }: Totals): string {
  const findings = counts.suite_regressed;
  return `tests="${counts.cases + findings}" failures="${outcomes.failure + findings}" errors="${outcomes.error}" skipped="${outcomes.skipped}" time="${seconds(time_ms)}"`;
}

/** One case's `<testcase>` line. */
function junitCase(c: FoldedCase, suite: SuiteReport): string {
  return `    ${testcase(c, suite)}\n`;
}

/** `<testsuite …>` with the counts of all its cases, and its properties. */
function suiteHead(suite: SuiteReport, totals: Totals): string {
  const props = [
    ['service', suite.service],
    ['requested_model', suite.requested_model],
    ['models', suite.models.join(', ')],
    ['providers', suite.providers.join(', ')],
    ['baseline', suite.baseline ?? 'none'],
  ]
    .map(([k, v]) => `<property name="${k}" value="${attr(v ?? '')}"/>`)
    .join('\n      ');
  return [
    `  <testsuite name="${attr(suite.suite)}" ${countAttrs(totals)} file="${attr(suite.file)}">\n`,
    `    <properties>\n      ${props}\n    </properties>\n`,
  ].join('');
}

/** After the cases: the failing findings as testcases, the others as notes, and the close. */
function suiteTail(suite: SuiteReport): string {
  const failing = suite.drift.filter((d) => d.severity === 'fail');
  const notes = driftLines(suite.drift.filter((d) => d.severity !== 'fail'));
  return [
    ...failing.map((d) => `    ${suiteDriftCase(suite, d)}\n`),
    notes.length ? `    <system-out>${xmlText(notes.join('\n'))}</system-out>\n` : '',
    '  </testsuite>\n',
  ].join('');
}

function root(head: ReportHead, totals: Totals): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${attr(`driftcheck ${head.run.id}`)}" ${countAttrs(totals)} timestamp="${attr(head.run.started_at)}">\n`;
}

/**
 * `junit.xml` for CI test views (GitLab and Jenkins read it; GitHub needs a publishing
 * step): one testsuite per suite, one testcase per case (classname = suite, name = case
 * id), failures and errors that say what drifted or failed and the error kind. Pure.
 */
export function renderJunit(report: Report): string {
  const published = publishReport(report);
  const suites = published.suites.map(
    ({ suite, totals, cases }) =>
      `${suiteHead(suite, totals)}${cases.map((c) => junitCase(c, suite)).join('')}${suiteTail(suite)}`,
  );
  return `${root(published.head, published.totals)}${suites.join('')}</testsuites>\n`;
}

/**
 * Writes `junit.xml`: each suite's testcases as they come (to a spool of their own: the
 * `<testsuite>` element carries its counts, known at its end), the suite whole once its last
 * case is in, the root (with the run's totals) at the end.
 */
export function junitReporter(dir: string): Reporter {
  const file = new SpooledFile(dir, 'junit.xml');
  const part = new SpooledFile(dir, 'junit.xml.suite');
  return {
    // Not async: the spool answers a promise only when it goes to disk (see SpooledFile.write).
    onCase(c) {
      return part.write(junitCase(c, c.suite));
    },
    async onSuiteEnd({ suite, totals }) {
      await file.write(suiteHead(suite, totals));
      await part.moveTo(file);
      await file.write(suiteTail(suite));
    },
    async onEnd(head, totals) {
      return [await file.finish(root(head, totals), '</testsuites>\n')];
    },
    async onAbort() {
      await part.discard();
      await file.discard();
    },
  };
}
