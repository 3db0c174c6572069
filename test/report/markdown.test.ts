import { describe, expect, it } from 'vitest';
import { mdText, renderMarkdown } from '../../src/report/markdown.js';
import { makeCase, makeReport, manyCases, regressedDrift, repeatedReport, sampleCases } from './fixture.js';

/** The case ids of every table row, in order. */
function rowIds(md: string): string[] {
  return [...md.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]!);
}

describe('renderMarkdown', () => {
  it('leads with the verdict and counts, then regressions, failures and errors, then drift to review', () => {
    const md = renderMarkdown(makeReport(sampleCases()));
    expect(md.split('\n')[0]).toBe(
      '## ❌ FAIL — driftcheck: 2 regressed, 2 failed, 1 errored, 4 drifted, 1 not run',
    );
    // cases, passed, failed, errored, not run, regressed, drifted, samples: the same counts as the console and HTML.
    expect(md).toContain('| 6 | 2 | 2 | 1 | 1 | 2 | 4 | 5 |');
    const headings = [...md.matchAll(/^### (.+)$/gm)].map((m) => m[1]);
    expect(headings).toEqual(['Regressions (2)', 'Failures and errors (1)', 'Drift to review (1)']);
    expect(rowIds(md)).toEqual([
      'support/refund-window',
      'support/warranty',
      'direct/release-notes',
      'support/tone',
    ]);
    expect(md).toContain(
      '**Models:** support (router): `openai/gpt-4o-mini` · direct (direct): `kimi-k2-0905-preview-2`',
    );
  });

  it('says PASS and lists nothing when nothing failed or drifted', () => {
    const md = renderMarkdown(makeReport([makeCase({ case: 'a' }), makeCase({ case: 'b' })]));
    expect(md.split('\n')[0]).toBe('## ✅ PASS — driftcheck');
    expect(md).not.toContain('###');
  });

  it('caps the rows and says how many more there are', () => {
    const report = makeReport(manyCases(500));
    const md = renderMarkdown(report, {
      maxRows: 10,
      reportUrl: 'https://ci.example.com/job/7/artifacts/report.html',
    });
    const regressed = report.cases.filter((c) => c.drift.some((d) => d.severity === 'fail')).length;
    expect(rowIds(md)).toHaveLength(10);
    expect(md).toContain(`### Regressions (${regressed})`);
    expect(md).toContain(`… and ${regressed - 10} more.`);
    expect(md).toMatch(
      /\d+ more findings not listed\. \[Full report\]\(https:\/\/ci\.example\.com\/job\/7\/artifacts\/report\.html\)\n$/,
    );
  });

  it.each([60_000, 8_000, 2_000])('stays within maxBytes = %i even for 5,000 findings', (maxBytes) => {
    const cases = manyCases(5_000).map((c) => ({
      ...c,
      status: 'fail' as const,
      drift: [regressedDrift(`${'x'.repeat(300)} because`)],
    }));
    const md = renderMarkdown(makeReport(cases), { maxRows: 5_000, maxBytes });
    expect(Buffer.byteLength(md)).toBeLessThanOrEqual(maxBytes);
    expect(rowIds(md).length).toBeGreaterThan(0);
    expect(md).toMatch(/more findings not listed/);
  });

  it('neutralises markdown, HTML, mentions and issue references from model output', () => {
    const evil =
      'got "<img src=x onerror=alert(1)> | @octocat fixes #12 [x](javascript:alert(1)) **bold**\nnext line"';
    const md = renderMarkdown(
      makeReport([
        makeCase({
          case: 'evil',
          status: 'fail',
          checks: [{ type: 'contains', pass: false, message: evil }],
        }),
      ]),
    );
    const row = md.split('\n').find((l) => l.startsWith('| `support/evil`'))!;
    expect(row.split(/(?<!\\)\|/)).toHaveLength(6); // 4 cells: the pipe in the text is escaped
    expect(row).not.toMatch(/<img|@octocat|#12|(?<!\\)\]\(|(?<!\\)\*\*bold/);
    expect(row).toContain(
      '&lt;img src=x onerror=alert(1)&gt; \\| @\u200boctocat fixes #\u200b12 \\[x\\](javascript:alert(1)) \\*\\*bold\\*\\* next line',
    );
  });

  it.each([
    ['javascript:alert(1)', null],
    ['data:text/html,hi', null],
    ['https://example.com/a b/(x)', 'https://example.com/a%20b/%28x%29'],
    ['reports/run-1/report.html', 'reports/run-1/report.html'],
  ])('links the report url %j only when it is http(s) or a path', (url, link) => {
    const md = renderMarkdown(makeReport([makeCase({ case: 'a' })]), { reportUrl: url });
    if (link === null) expect(md).not.toContain('[Full report]');
    else expect(md).toContain(`[Full report](${link})`);
  });

  it('clips long cells', () => {
    expect(mdText('a'.repeat(500))).toHaveLength(200);
  });
});

describe('renderMarkdown with repeated cases', () => {
  it('lists a dropped case once with its samples, and its pass-rate row; not the case that holds', () => {
    const md = renderMarkdown(repeatedReport());
    expect(rowIds(md)).toEqual(['support/dropped', 'support/dropped']);
    expect(md).toContain('| `support/dropped` | fail 2/5 |');
    expect(md).toContain('### Pass rates of repeated cases (1)');
    expect(md).toContain('| `support/dropped` | 2/5 (40%, CI 20%–95%) | 5/5 | 0.004 | dropped ❌ |');
  });
});
