import type { CaseResult, CaseStats, Drift, Report, SuiteReport } from '../types.js';
import { isRegressed } from './verdict.js';

/** Longest `message` attribute; the full story goes in the element's text. */
const MESSAGE_CHARS = 500;
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

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MESSAGE_CHARS ? `${flat.slice(0, MESSAGE_CHARS - 1)}…` : flat;
}

function clip(text: string): string {
  if (text.length <= CONTENT_CHARS) return text;
  return `${text.slice(0, CONTENT_CHARS)}… (${text.length - CONTENT_CHARS} more characters in report.json)`;
}

const seconds = (ms: number | null): string => ((ms ?? 0) / 1000).toFixed(3);

/** Test name: the case id, with `#repeat` when the case ran more than once. */
function testName(c: CaseResult, repeated: ReadonlySet<string>): string {
  return repeated.has(`${c.suite}/${c.case}`) ? `${c.case}#${c.repeat}` : c.case;
}

function failedChecks(c: CaseResult): string[] {
  return c.checks.filter((k) => !k.pass).map((k) => `${k.type}: ${k.message}`);
}

function driftLines(drift: readonly Drift[]): string[] {
  return drift.map((d) => `drift ${d.severity} ${d.kind}: ${d.message}`);
}

/** The details under a failure, error or skip: what failed, what drifted, what answered. */
function details(c: CaseResult): string {
  const lines = [
    `case: ${c.key}`,
    `service: ${c.service}`,
    `requested model: ${c.requested_model}`,
    `concrete model: ${c.model ?? 'none'}`,
  ];
  if (c.error) {
    const e = c.error;
    lines.push(`error kind: ${e.kind}`, `http status: ${e.http_status ?? 'none'}`);
    if (e.type) lines.push(`error type: ${e.type}`);
    if (e.code) lines.push(`error code: ${e.code}`);
    if (e.model) lines.push(`error model: ${e.model}`);
    lines.push(`error message: ${e.message}`);
  }
  lines.push(`finish_reason: ${c.finish_reason ?? 'none'}`, `attempts: ${c.attempts}`);
  for (const k of c.checks) lines.push(`check ${k.pass ? 'pass' : 'FAIL'} ${k.type}: ${k.message}`);
  lines.push(...driftLines(c.drift));
  return lines.join('\n');
}

/** `4/5 pass (80%, 95% CI 38–96%) vs baseline 5/5, p=0.5: stable` */
export function passRateText(s: CaseStats): string {
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  const base = s.baseline ? ` vs baseline ${s.baseline.pass}/${s.baseline.total}` : ' (no baseline samples)';
  const p = s.p === null ? '' : `, p=${s.p}`;
  return `${s.samples.pass}/${s.samples.total} pass (${pct(s.rate)}, 95% CI ${pct(s.interval.low)}–${pct(s.interval.high)})${base}${p}: ${s.verdict}${s.failing ? ', failing' : ''}`;
}

type Outcome = 'error' | 'failure' | 'skipped' | 'pass';

/**
 * How CI should count one sample. A failed sample of a repeated case is expected noise
 * unless the case's pass rate fails (that is what decides the exit code), so it passes.
 */
function outcomeOf(c: CaseResult, stat: CaseStats | undefined): Outcome {
  if (c.status === 'error' && c.error) return 'error';
  if (isRegressed(c)) return 'failure';
  if (c.status === 'fail') return stat && !stat.failing ? 'pass' : 'failure';
  return c.status === 'not_run' ? 'skipped' : 'pass';
}

/** One `<testcase>`: error for a service error, failure for failed checks or regressions, skipped when not run. */
function testcase(
  c: CaseResult,
  suite: SuiteReport | undefined,
  repeated: ReadonlySet<string>,
  stat: CaseStats | undefined,
): string {
  const open = `<testcase name="${attr(testName(c, repeated))}" classname="${attr(c.suite)}" time="${seconds(c.latency_ms)}"${suite ? ` file="${attr(suite.file)}"` : ''}>`;
  const body: string[] = [];
  const regressions = c.drift.filter((d) => d.severity === 'fail' && d.kind !== 'new_error');
  const outcome = outcomeOf(c, stat);
  if (outcome === 'error' && c.error) {
    const e = c.error;
    const message = `${e.kind}${e.http_status ? ` (HTTP ${e.http_status})` : ''}: ${e.message}${regressions.length ? ` — ${regressions.map((d) => d.message).join('; ')}` : ''}`;
    body.push(
      `<error message="${attr(oneLine(message))}" type="${attr(e.kind)}">${xmlText(details(c))}</error>`,
    );
  } else if (outcome === 'failure') {
    const reasons = [
      ...regressions.map((d) => d.message),
      ...failedChecks(c),
      ...(stat ? [`pass rate ${passRateText(stat)}`] : []),
    ];
    const type = regressions.length > 0 ? regressions.map((d) => d.kind).join(',') : 'expectation';
    body.push(
      `<failure message="${attr(oneLine(reasons.join('; ') || 'failed'))}" type="${attr(type)}">${xmlText(details(c))}</failure>`,
    );
  } else if (outcome === 'skipped') {
    body.push(`<skipped message="not run: the run stopped before this sample was sent"/>`);
  }
  const notes =
    outcome !== 'pass'
      ? []
      : [
          ...(c.status === 'fail' && stat
            ? [
                `this sample failed (${failedChecks(c).join('; ')}), but the case's pass rate does not fail: ${passRateText(stat)}`,
              ]
            : []),
          ...driftLines(c.drift),
        ];
  const out = [...notes, ...(c.content === null ? [] : [`content:\n${clip(c.content)}`])];
  if (out.length > 0) body.push(`<system-out>${xmlText(out.join('\n'))}</system-out>`);
  return body.length === 0
    ? `${open.slice(0, -1)}/>`
    : `${open}\n      ${body.join('\n      ')}\n    </testcase>`;
}

/** Suite-level drift that fails the run (none today; missing cases warn) still gets a red testcase. */
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

function counts(
  cases: readonly CaseResult[],
  suiteFailures: number,
  stats: ReadonlyMap<string, CaseStats>,
): Counts {
  const n: Counts = {
    tests: cases.length + suiteFailures,
    failures: suiteFailures,
    errors: 0,
    skipped: 0,
    time: 0,
  };
  for (const c of cases) {
    const outcome = outcomeOf(c, stats.get(c.case));
    if (outcome === 'error') n.errors++;
    else if (outcome === 'failure') n.failures++;
    else if (outcome === 'skipped') n.skipped++;
    n.time += c.latency_ms ?? 0;
  }
  return n;
}

const countAttrs = (n: Counts): string =>
  `tests="${n.tests}" failures="${n.failures}" errors="${n.errors}" skipped="${n.skipped}" time="${seconds(n.time)}"`;

/**
 * `junit.xml` for CI test views (GitHub, GitLab, Jenkins): one testsuite per suite, one
 * testcase per case and repeat (classname = suite, name = case id), failures and errors
 * that say what drifted or failed and the error kind. Warn/info drift on a passing case
 * goes to its system-out.
 */
export function renderJunit(report: Report): string {
  return [...renderJunitChunks(report)].join('');
}

/**
 * The same document in pieces, one testcase at a time, so that a 100,000-case file is
 * written without ever holding it as one string. The counts every testsuite (and the
 * root) opens with are computed first.
 */
export function* renderJunitChunks(report: Report): Generator<string> {
  const bySuite = new Map<string, CaseResult[]>();
  for (const c of report.cases) {
    const list = bySuite.get(c.suite);
    if (list) list.push(c);
    else bySuite.set(c.suite, [c]);
  }
  const suites = new Map(report.suites.map((s) => [s.suite, s]));
  const names = [...new Set([...report.suites.map((s) => s.suite), ...bySuite.keys()])];
  const repeated = new Set(report.cases.filter((c) => c.repeat > 0).map((c) => `${c.suite}/${c.case}`));
  const total: Counts = { tests: 0, failures: 0, errors: 0, skipped: 0, time: 0 };
  const parts = names.map((name) => {
    const suite = suites.get(name);
    const cases = bySuite.get(name) ?? [];
    const failing = suite?.drift.filter((d) => d.severity === 'fail') ?? [];
    const stats = new Map((suite?.pass_rates ?? []).map((x) => [x.case, x]));
    const n = counts(cases, failing.length, stats);
    for (const k of Object.keys(total) as (keyof Counts)[]) total[k] += n[k];
    return { name, suite, cases, failing, stats, n };
  });
  yield '<?xml version="1.0" encoding="UTF-8"?>\n';
  yield `<testsuites name="${attr(`driftcheck ${report.run.id}`)}" ${countAttrs(total)} timestamp="${attr(report.run.started_at)}">\n`;
  for (const { name, suite, cases, failing, stats, n } of parts) {
    yield `  <testsuite name="${attr(name)}" ${countAttrs(n)} timestamp="${attr(report.run.started_at)}"${suite ? ` file="${attr(suite.file)}"` : ''}>\n`;
    if (suite) {
      const props = [
        ['service', suite.service],
        ['requested_model', suite.requested_model],
        ['models', suite.models.join(', ')],
        ['baseline', suite.baseline ?? 'none'],
      ]
        .map(([k, v]) => `<property name="${k}" value="${attr(v ?? '')}"/>`)
        .join('\n      ');
      yield `    <properties>\n      ${props}\n    </properties>\n`;
    }
    for (const c of cases) yield `    ${testcase(c, suite, repeated, stats.get(c.case))}\n`;
    if (suite) for (const d of failing) yield `    ${suiteDriftCase(suite, d)}\n`;
    const suiteNotes = [
      ...driftLines(suite?.drift.filter((d) => d.severity !== 'fail') ?? []),
      ...[...stats.values()].map((x) => `pass rate ${x.case}: ${passRateText(x)}`),
    ];
    if (suiteNotes.length) yield `    <system-out>${xmlText(suiteNotes.join('\n'))}</system-out>\n`;
    yield '  </testsuite>\n';
  }
  yield '</testsuites>\n';
}
