import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/report/html/index.js';
import type { BriefPageCase } from '../../src/report/html/data.js';
import type { Baseline } from '../../src/stored/baseline/types.js';
import type { CaseEntry } from '../../src/stored/report/types.js';
import {
  contentDrift,
  embedded,
  type PageData,
  inlineBlocks,
  makeCase,
  makeReport,
  regressedDrift,
  repeatedReport,
  sampleCases,
} from './fixture.js';

const XSS = '</script><script>window.__xss=1</script><img src=x onerror="window.__xss=1"><!-- \u2028\u2029';

const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('renderHtml', () => {
  it('allows exactly its own inline script and style through a strict CSP', () => {
    const html = renderHtml(makeReport(sampleCases()));
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/
      .exec(html)![1]!
      .replace(/&#39;/g, "'");
    const scripts = inlineBlocks(html, 'script');
    expect(scripts.map((s) => s.attrs)).toEqual([' type="application/json" id="report-data"', '']);
    const styles = inlineBlocks(html, 'style');
    expect(styles).toHaveLength(1);
    expect(csp.split('; ')).toEqual([
      "default-src 'none'",
      `script-src ${sha(scripts[1]!.body)}`,
      `style-src ${sha(styles[0]!.body)}`,
      'img-src data:',
      "base-uri 'none'",
      "form-action 'none'",
      "require-trusted-types-for 'script'",
      "trusted-types 'none'",
    ]);
    expect(html).not.toMatch(/\s(src|href)="(?!data:)/);
  });

  it('embeds hostile model output as inert JSON that reads back unchanged', () => {
    const c = makeCase({
      case: 'xss',
      content: XSS,
      messages: [{ role: 'user', content: XSS }],
      checks: [{ type: 'contains', pass: false, message: XSS }],
      status: 'fail',
    });
    const html = renderHtml(makeReport([c]));
    const [data, script] = inlineBlocks(html, 'script');
    expect(inlineBlocks(html, 'script')).toHaveLength(2);
    expect(data!.body).not.toMatch(/[<>&\u2028\u2029]/);
    const page = embedded(html);
    expect(page.cases[0]!.content).toBe(XSS);
    expect(page.cases[0]!.messages[0]!.content).toBe(XSS);
    expect(script!.body).not.toContain('innerHTML');
  });

  it('escapes report fields rendered into the page itself (suite, models, run id, stop reason)', () => {
    const c = makeCase({
      suite: '<b>s</b>',
      case: 'a',
      model: '<img src=x onerror=alert(1)>',
      requested_model: '"><script>x</script>',
    });
    const report = makeReport([c]);
    report.run.id = '<i>run</i>';
    report.run.stop_reason = {
      kind: 'auth',
      http_status: 401,
      type: null,
      code: null,
      message: '<script>alert(1)</script>',
      model: null,
    };
    const html = renderHtml(report, { title: '<title>' });
    const outsideData = html.replace(/<script[\s\S]*?<\/script>/g, '');
    for (const raw of [
      '<b>s</b>',
      '<i>run</i>',
      '<img src=x',
      '<script>alert',
      '"><script>',
      '<title><title>',
    ])
      expect(outsideData).not.toContain(raw);
    expect(outsideData).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(outsideData).toContain('<title>&lt;title&gt;</title>');
  });

  it('ranks regressions first, then errors, failures and warnings; the page sorts by rank, plan order within each', () => {
    const page = embedded(renderHtml(makeReport(sampleCases())));
    // Embedded in plan order; the page's script sorts by rank (a stable sort keeps plan order within a rank).
    expect(page.cases.map((c) => c.id)).toEqual(sampleCases().map((c) => c.id));
    // A brief case (passed, nothing changed) carries no rank: the script gives it the last one, 6.
    const rank = (c: PageData['cases'][number]) => ('brief' in c ? 6 : c.rank);
    const sorted = [...page.cases].sort((a, b) => rank(a) - rank(b));
    expect(sorted.map((c) => c.id.replace(/^[^/]+\//, ''))).toEqual([
      'refund-window',
      'warranty',
      'release-notes',
      'tone',
      'paused',
      'greeting',
    ]);
  });

  it.each<[string, CaseEntry, string | null, PageData['cases'][number]['baseline']]>([
    [
      'content drift carries the baseline text',
      makeCase({ case: 'a', content: 'new text', drift: [contentDrift('old text', 'new text')] }),
      'old text',
      'text',
    ],
    // Passing with nothing changed is brief on the page (its own test below): shown in full here.
    ['no content drift means the same text', full(makeCase({ case: 'a' })), null, 'same'],
    [
      'a new case has none',
      full(
        makeCase({
          case: 'a',
          drift: [{ kind: 'new_case', severity: 'info', baseline: null, current: 'pass', message: 'new' }],
        }),
      ),
      null,
      'none',
    ],
    [
      'an errored case has none',
      makeCase({ case: 'a', status: 'error', content: '', drift: [regressedDrift('errors')] }),
      null,
      'none',
    ],
  ])('baseline answer: %s', (_name, c, text, kind) => {
    const baseline =
      kind === 'none' ? null : baselineWith({ a: 'Refunds are accepted within 30 days of purchase.' });
    const page = embedded(renderHtml(makeReport([c]), { baselines: new Map([['support', baseline]]) }));
    expect(page.cases[0]).toMatchObject({ baseline: kind, baseline_content: text });
  });

  it('takes the baseline answers of the suite it was compared with', () => {
    const c = makeCase({ case: 'a', status: 'error', content: null, drift: [regressedDrift('errors')] });
    const report = makeReport([c, full(makeCase({ case: 'b' }))]);
    const html = renderHtml(report, {
      baselines: new Map([
        [
          'support',
          baselineWith({ a: 'the old answer', b: 'Refunds are accepted within 30 days of purchase.' }),
        ],
      ]),
    });
    expect(embedded(html).cases.map((x) => [x.case, x.baseline, x.baseline_content])).toEqual([
      ['a', 'text', 'the old answer'],
      ['b', 'same', null],
    ]);
  });

  it('shortens texts and says so above 20,000 cases', () => {
    const long = 'word '.repeat(1_000);
    const cases = Array.from({ length: 20_001 }, (_, i) => makeCase({ case: `c${i}` }));
    cases[0] = { ...cases[0]!, content: long, messages: [{ role: 'user', content: long }], detail: 'full' };
    const html = renderHtml(makeReport(cases));
    const page = embedded(html);
    expect(page.text_limit).toBe(2_048);
    const first = page.cases.find((c) => c.id === cases[0]!.id)!;
    // Cut to the limit, saying how much was left out.
    expect(first.content).toHaveLength(2_048);
    expect(first.content).toMatch(/^word word .*… \(\+2972 characters\)$/);
    expect(first.messages[0]!.content).toBe(first.content);
    expect(first.truncated).toBe(true);
    expect(html).toContain('This report has 20,001 cases');
    expect(embedded(renderHtml(makeReport(cases.slice(0, 20_000)))).text_limit).toBe(65_536);
  });

  it('bounds every text it quotes in any report: a 1 MB prompt and answer are cut at 64 KiB, saying by how much', () => {
    const huge = 'x'.repeat(1_000_000);
    const c = makeCase({
      case: 'huge',
      content: huge,
      messages: [{ role: 'user', content: huge }],
      status: 'fail',
    });
    const html = renderHtml(makeReport([c]));
    expect(html.length).toBeLessThan(300_000);
    const page = embedded(html);
    expect(page.text_limit).toBe(65_536);
    const [shown] = page.cases;
    expect(shown!.content).toHaveLength(65_536);
    expect(shown!.content).toMatch(/… \(\+934486 characters\)$/);
    expect(shown!.messages[0]!.content).toBe(shown!.content);
    expect(shown!.truncated).toBe(true);
    expect(html).not.toContain('This report has');
  });
});

describe('renderHtml of brief cases', () => {
  it('embeds a passing unchanged case as its counts and says where the rest is; others in full', () => {
    const failing = makeCase({
      case: 'refund',
      status: 'fail',
      content: 'No refunds.',
      checks: [{ type: 'contains', pass: false, message: 'expected "30 days"' }],
    });
    const passing = makeCase({ case: 'greeting', content: 'Hello! How can I help?' });
    const html = renderHtml(makeReport([failing, passing]));
    const [first, second] = embedded(html).cases as unknown as [PageData['cases'][number], BriefPageCase];
    expect(first).toMatchObject({ id: 'support/refund', status: 'fail', content: 'No refunds.' });
    expect(second).toEqual({
      id: 'support/greeting',
      brief: true,
      new_case: false,
      model: passing.model,
      passed: 1,
      sent: 1,
      tokens: passing.stats.total_tokens,
      latency_ms: passing.stats.latency_ms!.p50,
    });
    expect(html).not.toContain('Hello! How can I help?');
    expect(html).toContain('1 of 2 cases passed every sample with nothing changed');
    expect(html).toContain('in report.json beside this page, and every sample in results.jsonl');
  });

  it("holds a suite's system prompt once and leaves it out of each case's messages", () => {
    const system = { role: 'system' as const, content: 'You are ACME support.' };
    const failing = (id: string) =>
      makeCase({
        case: id,
        status: 'fail',
        messages: [system, { role: 'user', content: `question ${id}` }],
      });
    const report = makeReport([failing('a'), failing('b')]);
    report.suites = report.suites.map((s) => ({ ...s, system: system.content }));
    const html = renderHtml(report);
    expect(html.split('You are ACME support.')).toHaveLength(2);
    const page = embedded(html) as PageData & { systems: Record<string, string> };
    expect(page.systems).toEqual({ support: system.content });
    expect(page.cases.map((c) => c.messages)).toEqual([
      [{ role: 'user', content: 'question a' }],
      [{ role: 'user', content: 'question b' }],
    ]);
  });
});

describe('renderHtml with repeated cases', () => {
  it('shows one row per case with its samples, and the pass-rate table', () => {
    const html = renderHtml(repeatedReport());
    const page = embedded(html);
    expect(page.cases.map((c) => [c.id, c.status, c.samples.passed, c.samples.sent])).toEqual([
      ['support/noisy', 'pass', 4, 5],
      ['support/dropped', 'fail', 2, 5],
    ]);
    expect(page.cases[1]!.rank).toBeLessThan(page.cases[0]!.rank);
    expect(html).toContain(
      '<tr><td><code>support/dropped</code></td><td>2/5</td><td>40% (20%–95%)</td><td>5/5</td><td>0.004</td><td class="bad">dropped, failing</td></tr>',
    );
  });
});

/** The entry shown in full, as the fold marks a case a reviewer reads. */
function full(c: CaseEntry): CaseEntry {
  return { ...c, detail: 'full' };
}

/** A baseline of suite `support` whose cases answered these texts. */
function baselineWith(contents: Record<string, string>): Baseline {
  return {
    schema_version: 1,
    suite: 'support',
    service: 'router',
    model: 'openai/gpt-4o-mini',
    source_run: 'earlier',
    cases: Object.fromEntries(
      Object.entries(contents).map(([id, content]) => [
        id,
        {
          status: 'pass' as const,
          requested_model: 'openai/gpt-4o-mini',
          model: 'openai/gpt-4o-mini',
          finish_reason: 'stop',
          usage: { prompt_tokens: 12, completion_tokens: 8, total_tokens: 20, cost: 0.0001 },
          content,
          error_kind: null,
          checks: [],
        },
      ]),
    ),
  };
}
