import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVIEW_RANK } from '../../src/fold/review.js';
import { consoleReporter } from '../../src/report/console.js';
import { htmlReporter } from '../../src/report/html/render.js';
import { junitReporter } from '../../src/report/junit.js';
import { markdownReporter } from '../../src/report/markdown.js';
import { foldedOtherwise, replay } from '../helpers/published.js';
import { embedded, makeReport, repeatedReport, sampleCases } from './fixture.js';
import { parseXml, type XmlElement } from './xml.js';

// Each view is handed a run whose fold decided some things otherwise than its entries
// would suggest: a pass the fold calls regressed, a regression it calls drift to review,
// totals no sum of the entries gives. A view that only renders shows the fold's classes,
// order and figures; one that ranked or summed the entries itself fails here.

/**
 * sampleCases() (a pass, a regressed failure, a regressed error, two drifted, one not run),
 * reclassed: the case not run is regressed, the regressed failure is drift to review.
 */
const reclassed = () =>
  foldedOtherwise(makeReport(sampleCases()), {
    review: {
      'support/paused': 'regressed',
      'support/refund-window': 'drift_warn',
      'support/warranty': 'errored',
      'support/tone': 'failed',
    },
    outcome: { 'support/paused': 'failure', 'support/refund-window': 'pass' },
    totals: {
      review: { regressed: 40, errored: 1, failed: 2, drift_warn: 1, not_run: 1, drift_info: 0, passed: 0 },
      outcomes: { error: 1, failure: 3, skipped: 1, pass: 40 },
      tokens: { prompt: 1_000, completion: 3_242, total: 4_242 },
      samples: 77,
      cost: 12.5,
      time_ms: 98_765,
      brief: 3,
      drift_kinds: new Map([['model_changed', 9]]),
      compared: {
        cases: 11,
        run: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 2_000, cost: null },
        baseline: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 1_000, cost: null },
      },
    },
    suiteTotals: {
      support: { time_ms: 12_345, outcomes: { error: 7, failure: 8, skipped: 9, pass: 0 } },
    },
  });

/** The repeated cases of repeatedReport(), their pass-rate concerns swapped: `noisy` flaky, `dropped` stable. */
const reranked = () =>
  foldedOtherwise(repeatedReport(), {
    rate: { 'support/noisy': 'flaky', 'support/dropped': 'stable' },
    totals: { rates: { failing: 0, dropped: 0, flaky: 5, new: 0, stable: 1 } },
  });

describe('the views render the fold, and rank and add up nothing themselves', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'driftcheck-folded-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));
  const folder = async (name: string) => {
    const path = join(dir, name);
    await mkdir(path);
    return path;
  };

  it("the console lists the fold's classes in its order, with its cost and counts", async () => {
    let out = '';
    await replay(
      consoleReporter((text) => (out += text), { color: false, columns: 200 }),
      reclassed(),
    );
    const listed = out.split('\n').filter((l) => /^[✗!] /.test(l));
    expect(listed.map((l) => l.split(' ').slice(0, 2).join(' '))).toEqual([
      '✗ support/paused',
      '✗ support/warranty',
      '✗ support/tone',
      '✗ direct/release-notes',
      '! support/refund-window',
    ]);
    expect(out).toContain('cost $12.5000');
    // 44 cases of the listed classes by the fold's count, 5 of them in the report.
    expect(out).toContain('… and 39 more (see report.json)');
  });

  it("summary.md puts cases under the fold's classes, and shows its tokens, cost and counts", async () => {
    const file = await folder('md');
    await replay(markdownReporter(file), reclassed());
    const md = await readFile(join(file, 'summary.md'), 'utf8');
    const section = (title: string) => {
      const at = md.indexOf(`### ${title}`);
      const end = md.indexOf('\n### ', at + 1);
      return md.slice(at, end < 0 ? undefined : end);
    };
    expect(section('Regressions')).toMatch(/^### Regressions \(40\)/);
    expect(section('Regressions').match(/^\| `[\w/-]+`/gm)).toEqual(['| `support/paused`']);
    // Two classes under one heading, in plan order.
    expect(section('Failures and errors')).toMatch(/^### Failures and errors \(3\)/);
    expect(
      section('Failures and errors')
        .match(/^\| `[\w/-]+`/gm)
        ?.map((r) => r.slice(2)),
    ).toEqual(['`support/warranty`', '`support/tone`', '`direct/release-notes`']);
    expect(section('Drift to review')).toContain('`support/refund-window`');
    expect(md).toContain('4,242 tokens · cost $12.5000');
  });

  it("summary.md lists the pass rates of the fold's concerns, and counts them by its totals", async () => {
    const file = await folder('md-rates');
    await replay(markdownReporter(file), reranked());
    const md = await readFile(join(file, 'summary.md'), 'utf8');
    const rates = md.slice(md.indexOf('### Pass rates'));
    expect(rates).toMatch(/^### Pass rates of repeated cases \(5\)/);
    expect(rates).toContain('`support/noisy`');
    expect(rates).not.toContain('`support/dropped`');
  });

  it("junit.xml makes each case the testcase of the fold's outcome, and counts by its totals", async () => {
    const file = await folder('junit');
    await replay(junitReporter(file), reclassed());
    const root = parseXml(await readFile(join(file, 'junit.xml'), 'utf8'));
    // The run's: 6 cases (the counts), the fold's outcomes and time.
    expect(root.attrs).toMatchObject({
      tests: '6',
      failures: '3',
      errors: '1',
      skipped: '1',
      time: '98.765',
    });
    const support = root.children.find((s) => s.attrs.name === 'support')!;
    expect(support.attrs).toMatchObject({ failures: '8', errors: '7', skipped: '9', time: '12.345' });
    const testcase = (name: string): XmlElement =>
      support.children.find((c) => c.name === 'testcase' && c.attrs.name === name)!;
    expect(testcase('paused').children.map((c) => c.name)).toEqual(['failure']);
    // A regressed failure the fold calls a pass is a passing testcase.
    expect(testcase('refund-window').children.map((c) => c.name)).not.toContain('failure');
  });

  it("report.html ranks each case by the fold's class, and shows its totals", async () => {
    const file = await folder('html');
    await replay(htmlReporter(file), reclassed());
    const html = await readFile(join(file, 'report.html'), 'utf8');
    const ranks = Object.fromEntries(
      embedded(html).cases.map((c) => [c.id, 'rank' in c ? [c.rank, c.regressed] : ['brief']]),
    );
    expect(ranks['support/paused']).toEqual([REVIEW_RANK.regressed, true]);
    expect(ranks['support/refund-window']).toEqual([REVIEW_RANK.drift_warn, false]);
    expect(ranks['support/tone']).toEqual([REVIEW_RANK.failed, false]);
    expect(html).toContain('4,242 tokens (1,000 prompt, 3,242 completion) over 77 samples · cost $12.5000');
    expect(html).toContain('1,000 → 2,000 tokens (+100.0%) over the 11 cases both answered');
    expect(html).toContain('<option value="model_changed">model_changed (9)</option>');
    expect(html).not.toContain('<option value="regressed">');
    expect(html).toContain('3 of 6 cases passed every sample with nothing changed');
  });

  it("report.html's pass-rate table follows the fold's concerns", async () => {
    const file = await folder('html-rates');
    await replay(htmlReporter(file), reranked());
    const html = await readFile(join(file, 'report.html'), 'utf8');
    const table = html.slice(html.indexOf('<table class="rates">'));
    expect(table.indexOf('support/noisy')).toBeLessThan(table.indexOf('support/dropped'));
    // Not failing by the fold's word, whatever its entry's status.
    expect(table).not.toContain(', failing');
  });
});
