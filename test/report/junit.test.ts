import { describe, expect, it } from 'vitest';
import { renderJunit } from '../../src/report/junit.js';
import type { CaseEntry, SuiteReport } from '../../src/stored/report/types.js';
import {
  contentDrift,
  makeCase,
  makeReport,
  regressedDrift,
  repeatedReport,
  sampleCases,
} from './fixture.js';
import { findAll, parseXml, type XmlElement } from './xml.js';

function junit(cases: CaseEntry[], extra?: Parameters<typeof makeReport>[1]): XmlElement {
  return parseXml(renderJunit(makeReport(cases, extra)));
}

function testcase(root: XmlElement, classname: string, name: string): XmlElement {
  const found = findAll(root, 'testcase').filter(
    (t) => t.attrs.classname === classname && t.attrs.name === name,
  );
  expect(found).toHaveLength(1);
  return found[0]!;
}

describe('renderJunit', () => {
  it('writes one testsuite per suite and one testcase per case, with consistent counts', () => {
    const root = junit(sampleCases());
    expect(root.name).toBe('testsuites');
    const suites = findAll(root, 'testsuite');
    expect(suites.map((s) => s.attrs.name)).toEqual(['support', 'direct']);
    for (const suite of suites) {
      const cases = suite.children.filter((c) => c.name === 'testcase');
      const count = (tag: string) => cases.filter((c) => c.children.some((x) => x.name === tag)).length;
      expect(Number(suite.attrs.tests)).toBe(cases.length);
      expect(Number(suite.attrs.failures)).toBe(count('failure'));
      expect(Number(suite.attrs.errors)).toBe(count('error'));
      expect(Number(suite.attrs.skipped)).toBe(count('skipped'));
    }
    const sum = (k: string) => suites.reduce((n, s) => n + Number(s.attrs[k]), 0);
    expect({
      tests: root.attrs.tests,
      failures: root.attrs.failures,
      errors: root.attrs.errors,
      skipped: root.attrs.skipped,
    }).toEqual({
      tests: String(sum('tests')),
      failures: String(sum('failures')),
      errors: String(sum('errors')),
      skipped: String(sum('skipped')),
    });
    expect(root.attrs).toMatchObject({ tests: '6', failures: '2', errors: '1', skipped: '1' });
  });

  it.each([
    [
      'refund-window',
      'failure',
      'regressed',
      /^regressed: passed in the baseline, now fails 1 check \(contains\); contains: expected content to contain "30 days"/,
    ],
    [
      'warranty',
      'error',
      'empty_choices',
      /^empty_choices \(HTTP 200\): the response has an empty choices array — regressed/,
    ],
    ['paused', 'skipped', undefined, /^not run/],
  ])('%s gets a <%s> of type %s saying why', (name, tag, type, message) => {
    const tc = testcase(junit(sampleCases()), 'support', name);
    const outcome = tc.children.find((c) => c.name === tag)!;
    expect(outcome).toBeDefined();
    expect(outcome.attrs.type).toBe(type);
    expect(outcome.attrs.message).toMatch(message);
  });

  it('names the error kind, status, type and code in an error body', () => {
    const error = testcase(junit(sampleCases()), 'support', 'warranty').children.find(
      (c) => c.name === 'error',
    )!;
    expect(error.text).toContain('error kind: empty_choices');
    expect(error.text).toContain('http status: 200');
    expect(error.text).toContain('drift fail new_error');
  });

  it('fails on expectations alone (type expectation) and keeps warn drift of passing cases in system-out', () => {
    const root = junit(sampleCases());
    const notes = testcase(root, 'direct', 'release-notes').children.find((c) => c.name === 'failure')!;
    expect(notes.attrs).toMatchObject({
      type: 'expectation',
      message: 'finish_reason: expected finish_reason "stop", got "length"',
    });
    expect(notes.text).toContain(
      'drift warn model_changed: model changed: kimi-k2-0905-preview → kimi-k2-0905-preview-2',
    );
    const tone = testcase(root, 'support', 'tone');
    expect(tone.children.map((c) => c.name)).toEqual(['system-out']);
    expect(tone.children[0]!.text).toContain('drift warn usage_changed');
  });

  it('names a testcase by its case id, one per case however often it was sampled, timed from its latency', () => {
    const again = { ...makeCase({ case: 'again', latency_ms: 1500 }) };
    again.samples = { ...again.samples, planned: 3, sent: 3, passed: 3 };
    const root = junit([again, makeCase({ case: 'once' })]);
    expect(findAll(root, 'testcase').map((t) => [t.attrs.name, t.attrs.time])).toEqual([
      ['again', '4.500'],
      ['once', '0.120'],
    ]);
  });

  it('turns failing suite-level drift into a failed testcase and warnings into suite system-out', () => {
    const base = makeReport([makeCase({ case: 'a' })]).suites[0]!;
    const suites: SuiteReport[] = [
      {
        ...base,
        suite: 'support',
        file: 'suites/support.yaml',
        service: 'router',
        requested_model: 'openai/gpt-4o-mini',
        models: ['openai/gpt-4o-mini'],
        baseline: 'baselines/support.json',
        drift: [
          {
            kind: 'missing_case' as const,
            severity: 'warn' as const,
            baseline: null,
            current: null,
            message: 'missing case "old"',
          },
          {
            kind: 'pass_rate_dropped' as const,
            severity: 'fail' as const,
            baseline: null,
            current: null,
            message: 'pass rate dropped 10/10 → 4/10',
          },
        ],
      },
    ];
    const root = junit([makeCase({ case: 'a' })], { suites });
    const suite = findAll(root, 'testsuite')[0]!;
    expect(suite.attrs).toMatchObject({ tests: '2', failures: '1' });
    const failed = testcase(root, 'support', '(suite) pass_rate_dropped').children[0]!;
    expect(failed.attrs.message).toBe('pass rate dropped 10/10 → 4/10');
    expect(suite.children.find((c) => c.name === 'system-out')!.text).toContain('missing case "old"');
  });

  const hostile = [
    'closing tags </testcase></testsuite></testsuites>',
    'CDATA end ]]> and <![CDATA[ start',
    'quotes " \' and & ampersands &amp; &#0; &lt;',
    'control \u0000\u0001\u0008\u000b\u000c\u001b\u007f chars',
    'lone surrogates \ud800 and \udfff, and U+FFFE \ufffe',
    'emoji 🧪 and RTL \u202e text',
  ];
  it.each(hostile)('stays well-formed and keeps the text readable with model output: %j', (text) => {
    const c = makeCase({
      suite: 'x<y>&"z"',
      case: text,
      status: 'fail',
      content: text,
      checks: [{ type: 'contains', pass: false, message: text }],
      drift: [regressedDrift(), contentDrift(text, `${text}!`)],
    });
    const root = junit([c]);
    const tc = findAll(root, 'testcase')[0]!;
    const printableOf = (t: string) =>
      t.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD');
    const printable = printableOf(text);
    expect(tc.attrs.name).toBe(printable);
    expect(tc.attrs.classname).toBe('x<y>&"z"');
    expect(tc.children.find((x) => x.name === 'failure')!.attrs.message).toContain(
      printableOf(text.replace(/\s+/g, ' ').trim()),
    );
    expect(tc.children.find((x) => x.name === 'system-out')!.text).toBe(`content:\n${printable}`);
  });

  it('keeps multi-line messages on one line in the attribute and whole in the body', () => {
    const message = 'line one\nline two\ttabbed';
    const root = junit([
      makeCase({ case: 'm', status: 'fail', checks: [{ type: 'regex', pass: false, message }] }),
    ]);
    const failure = findAll(root, 'failure')[0]!;
    expect(failure.attrs.message).toBe('regex: line one line two tabbed');
    expect(failure.text).toContain(`check FAIL regex: ${message}`);
  });

  it('renders a run with no cases as an empty but valid document', () => {
    const root = parseXml(renderJunit(makeReport([], { suites: [] })));
    expect(root.attrs).toMatchObject({ tests: '0', failures: '0', errors: '0' });
    expect(root.children).toEqual([]);
  });
});

describe('renderJunit with repeated cases', () => {
  it('is one testcase per case: a noisy case that keeps its pass rate passes, a dropped one fails', () => {
    const root = parseXml(renderJunit(repeatedReport()));
    const outcome = (name: string) => {
      const tc = findAll(root, 'testcase').find((t) => t.attrs.name === name)!;
      return tc.children.map((c) => c.name).filter((n) => n !== 'system-out')[0] ?? 'pass';
    };
    expect(findAll(root, 'testcase').map((t) => t.attrs.name)).toEqual(['noisy', 'dropped']);
    expect(['noisy', 'dropped'].map(outcome)).toEqual(['pass', 'failure']);
    const suite = findAll(root, 'testsuite')[0]!;
    expect(suite.attrs).toMatchObject({ tests: '2', failures: '1' });
    const noisy = findAll(root, 'testcase').find((t) => t.attrs.name === 'noisy')!;
    expect(noisy.children[0]!.text).toContain(
      'pass rate 4/5 pass (80%, 95% CI 20%–95%) vs baseline 5/5, p=0.5: stable',
    );
    const failure = findAll(root, 'failure')[0]!;
    expect(failure.attrs.message).toContain('pass rate 100% (5/5) → 40% (2/5)');
    expect(failure.attrs.message).toContain('contains: 3/5 samples fail');
  });
});
