import { isRegressed, statusWord } from '../core/words.js';
import type { CaseEntry, Report, ReportHead, SuiteReport } from '../stored/report/types.js';
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
    lines.push(`error kind: ${e.kind}`, `http status: ${e.http_status ?? 'none'}`);
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

type Outcome = 'error' | 'failure' | 'skipped' | 'pass';

/** How CI should count one case: its verdict, as the console and the exit code read it. */
function outcomeOf(c: CaseEntry): Outcome {
  if (c.status === 'error') return 'error';
  if (c.status === 'fail' || isRegressed(c)) return 'failure';
  return c.status === 'not_run' ? 'skipped' : 'pass';
}

/** One `<testcase>`: error for a service error, failure for failed checks or regressions, skipped when not run. */
function testcase(c: CaseEntry, suite: SuiteReport): string {
  const time = c.stats.latency_ms ? c.stats.latency_ms.p50 * Math.max(1, c.samples.sent) : null;
  const open = `<testcase name="${attr(c.case)}" classname="${attr(c.suite)}" time="${seconds(time)}" file="${attr(suite.file)}">`;
  const body: string[] = [];
  const regressions = c.drift.filter((d) => d.severity === 'fail' && d.kind !== 'new_error');
  const outcome = outcomeOf(c);
  if (outcome === 'error' && c.error) {
    const e = c.error;
    const message = `${e.kind}${e.http_status ? ` (HTTP ${e.http_status})` : ''}: ${e.message}${regressions.length ? ` — ${regressions.map((d) => d.message).join('; ')}` : ''}`;
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

interface Counts {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  time: number;
}

const countAttrs = (n: Counts): string =>
  `tests="${n.tests}" failures="${n.failures}" errors="${n.errors}" skipped="${n.skipped}" time="${seconds(n.time)}"`;

/** One `<testsuite>` with its counts, a testcase per case, and its suite-level findings. Pure. */
export function renderJunitSuite(
  suite: SuiteReport,
  cases: readonly CaseEntry[],
): { xml: string; counts: Counts } {
  const n = suiteCounts(suite);
  const lines = cases.map((c) => junitCase(n, c, suite));
  return { xml: `${suiteHead(suite, n)}${lines.join('')}${suiteTail(suite)}`, counts: n };
}

/** The counts a suite starts from: its failing suite-level findings are testcases too. */
function suiteCounts(suite: SuiteReport): Counts {
  const failing = suite.drift.filter((d) => d.severity === 'fail').length;
  return { tests: failing, failures: failing, errors: 0, skipped: 0, time: 0 };
}

/** One case's `<testcase>` line, counted into `n`. */
function junitCase(n: Counts, c: CaseEntry, suite: SuiteReport): string {
  const outcome = outcomeOf(c);
  n.tests++;
  if (outcome === 'error') n.errors++;
  else if (outcome === 'failure') n.failures++;
  else if (outcome === 'skipped') n.skipped++;
  n.time += (c.stats.latency_ms?.p50 ?? 0) * Math.max(1, c.samples.sent);
  return `    ${testcase(c, suite)}\n`;
}

/** `<testsuite …>` with the counts of all its cases, and its properties. */
function suiteHead(suite: SuiteReport, n: Counts): string {
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
    `  <testsuite name="${attr(suite.suite)}" ${countAttrs(n)} file="${attr(suite.file)}">\n`,
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

function root(head: ReportHead, total: Counts): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${attr(`driftcheck ${head.run.id}`)}" ${countAttrs(total)} timestamp="${attr(head.run.started_at)}">\n`;
}

function addCounts(total: Counts, n: Counts): void {
  for (const k of Object.keys(total) as (keyof Counts)[]) total[k] += n[k];
}

const zero = (): Counts => ({ tests: 0, failures: 0, errors: 0, skipped: 0, time: 0 });

/**
 * `junit.xml` for CI test views (GitLab and Jenkins read it; GitHub needs a publishing
 * step): one testsuite per suite, one testcase per case (classname = suite, name = case
 * id), failures and errors that say what drifted or failed and the error kind. Pure.
 */
export function renderJunit(report: Report): string {
  const total = zero();
  const suites = report.suites.map((suite) => {
    const rendered = renderJunitSuite(
      suite,
      report.cases.filter((c) => c.suite === suite.suite),
    );
    addCounts(total, rendered.counts);
    return rendered.xml;
  });
  return `${root(report, total)}${suites.join('')}</testsuites>\n`;
}

/**
 * Writes `junit.xml`: each suite's testcases as they come (to a spool of their own: the
 * `<testsuite>` element carries its counts), the suite whole once its last case is in, the
 * root (with the totals) at the end.
 */
export function junitReporter(dir: string): Reporter {
  const file = new SpooledFile(dir, 'junit.xml');
  const part = new SpooledFile(dir, 'junit.xml.suite');
  const total = zero();
  let n = zero();
  return {
    onSuiteStart({ suite }) {
      n = suiteCounts(suite);
    },
    async onCase({ entry, suite }) {
      await part.write(junitCase(n, entry, suite));
    },
    async onSuiteEnd({ suite }) {
      addCounts(total, n);
      await file.write(suiteHead(suite, n));
      await part.moveTo(file);
      await file.write(suiteTail(suite));
    },
    async onEnd(head) {
      return [await file.finish(root(head, total), '</testsuites>\n')];
    },
    async onAbort() {
      await part.discard();
      await file.discard();
    },
  };
}
