import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, skipBrowser } from '../helpers/browser.js';
import { compareRuns, type InMemoryRun } from '../../src/compare/compare.js';
import { renderCompareHtml } from '../../src/compare/html/render.js';
import type { Comparison } from '../../src/compare/types.js';
import type { CaseEntry } from '../../src/stored/report/types.js';
import { makeEntry, reportOf } from '../helpers/entries.js';
import { contentDrift, regressedDrift } from '../report/fixture.js';

/** Where the screenshots go, to be looked at (not compared). */
const SHOTS = process.env.DRIFTCHECK_SHOTS ?? tmpdir();

const HOSTILE = [
  '<script>window.__xss = 1; alert("script")</script>',
  '<img src=x onerror="window.__xss = 1; alert(\'img\')">',
  '</script><script>window.__xss = 1; alert("breakout")</script>',
];

function candidate(label: string, cases: CaseEntry[], cost: number): InMemoryRun {
  const priced = cases.map((c) => ({
    ...c,
    stats: { ...c.stats, cost, with_cost: c.samples.sent },
  }));
  const report = reportOf(priced);
  return {
    label,
    run: {
      dir: `reports/run-${label}`,
      head: { ...report, run: { ...report.run, id: `run-${label}` } },
      cases: report.cases,
    },
  };
}

/** Three candidates against the baseline: one regresses with hostile answers, one is cheap, one is dear and good. */
async function comparison(): Promise<Comparison> {
  const before = 'Refunds are accepted within 30 days of purchase.';
  const hostileCase = (p: string, i: number) =>
    makeEntry({ case: `xss-${i}`, status: 'fail', content: `${p} now`, provider: p }, [
      regressedDrift(p),
      contentDrift(`${p} before`, `${p} now`, 0.3),
    ]);
  const a = candidate(
    '<b>mini</b>',
    [
      makeEntry(
        {
          case: 'refund',
          status: 'fail',
          content: 'Refunds are accepted within 14 days of purchase.',
          provider: 'OpenAI',
        },
        [regressedDrift(), contentDrift(before, 'Refunds are accepted within 14 days of purchase.', 0.85)],
      ),
      makeEntry({ case: 'greeting', content: 'Hello!', provider: 'OpenAI' }),
      ...HOSTILE.map(hostileCase),
    ],
    0.0001,
  );
  const b = candidate(
    'sonnet',
    [
      makeEntry({ case: 'refund', content: before, provider: 'Anthropic' }),
      makeEntry({ case: 'greeting', content: 'Hello there!', provider: 'Anthropic' }, [
        contentDrift('Hello!', 'Hello there!', 0.7),
      ]),
      ...HOSTILE.map((p, i) =>
        makeEntry({ case: `xss-${i}`, content: `${p} before`, provider: 'Anthropic' }),
      ),
    ],
    0.003,
  );
  const c = candidate(
    'llama',
    [
      makeEntry(
        {
          case: 'refund',
          status: 'error',
          content: null,
          error: {
            kind: 'routing',
            message: 'no provider',
            http_status: 503,
            type: null,
            code: null,
            model: null,
          },
        },
        [regressedDrift('errors (routing)')],
      ),
      makeEntry({ case: 'greeting', content: 'Hello!', provider: 'Groq' }),
    ],
    0.004,
  );
  // The baseline files: every case passed once.
  const baseline = ['refund', 'greeting', 'xss-0', 'xss-1', 'xss-2'].map((id) => ({
    id: `refunds/${id}`,
    samples: { pass: 1, total: 1 },
    cost: 0.001,
    latency_ms: [],
  }));
  return compareRuns({ kind: 'baseline', cases: baseline }, [a, b, c]);
}

async function inPage<T>(page: Page, source: string): Promise<T> {
  return (await page.evaluate(source)) as T;
}

describe.skipIf(skipBrowser)('compare.html in headless Chromium', () => {
  let browser: Browser;
  let dir: string;
  let url: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'driftcheck-compare-'));
    browser = await launchChromium();
    const file = join(dir, 'compare.html');
    await writeFile(file, renderCompareHtml(await comparison()));
    url = pathToFileURL(file).href;
  });
  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function open(hash = '', viewport = { width: 1280, height: 900 }) {
    const page = await browser.newPage({ viewport });
    const seen = { requests: [] as string[], errors: [] as string[], dialogs: [] as string[] };
    page.on('request', (r) => {
      if (r.url() !== url && r.url() !== url + hash && !r.url().startsWith('data:'))
        seen.requests.push(r.url());
    });
    page.on('pageerror', (e) => seen.errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') seen.errors.push(m.text());
    });
    page.on('dialog', (d) => {
      seen.dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(url + hash);
    await page.waitForFunction('document.documentElement.dataset.ready === "true"');
    return { page, seen };
  }
  const rowIds = (page: Page) => page.locator('#rows tr button.open').allTextContents();

  it('shows a row per case, a column per candidate, cards and the chart with the frontier marked', async () => {
    const { page, seen } = await open();
    expect(await rowIds(page)).toEqual([
      'refunds/refund',
      'refunds/greeting',
      'refunds/xss-0',
      'refunds/xss-1',
      'refunds/xss-2',
    ]);
    expect(await page.locator('.matrix thead th').allTextContents()).toEqual([
      'case',
      'baseline',
      '<b>mini</b>',
      'sonnet',
      'llama',
    ]);
    expect(await page.locator('#rows tr').first().locator('td').allInnerTexts()).toEqual([
      'pass',
      'fail regressed',
      'pass',
      'error regressed routing',
    ]);
    expect(await page.locator('article.card').count()).toBe(3);
    // Each card leads with its paired verdict, as compare.json holds it.
    expect(await page.locator('article.card p.verdict').allTextContents()).toEqual(
      (await comparison()).candidates.map((c) => c.verdict.line),
    );
    expect(await page.locator('article.card p.verdict').first().textContent()).toMatch(
      /^no significant regression: pass rate lower in 4 and higher in 0 of 5 cases \(McNemar p = /,
    );
    // The cheapest and the best are on the frontier; llama is dearer and worse than sonnet.
    expect(await page.locator('#chart g.point').count()).toBe(3);
    expect(await page.locator('#chart g.point.frontier text.label').allTextContents()).toEqual([
      '★ <b>mini</b>',
      '★ sonnet',
    ]);
    expect(await page.locator('#chart polyline.frontier-line').count()).toBe(1);
    await page.screenshot({ path: join(SHOTS, 'compare-page.png'), fullPage: true });
    expect(seen.errors).toEqual([]);
    expect(seen.requests).toEqual([]);
    await page.close();
  });

  it('filters to changed or regressed cases and searches by id', async () => {
    const { page, seen } = await open();
    await page.click('button.view[data-view="regressed"]');
    expect(await rowIds(page)).toEqual(['refunds/refund', 'refunds/xss-0', 'refunds/xss-1', 'refunds/xss-2']);
    await page.click('button.view[data-view="failing"]');
    expect(await rowIds(page)).toHaveLength(4);
    await page.click('button.view[data-view="changed"]');
    expect(await rowIds(page)).toHaveLength(5);
    await page.click('button.view[data-view="all"]');
    await page.fill('#q', 'GREET');
    await expect.poll(() => rowIds(page)).toEqual(['refunds/greeting']);
    await page.fill('#q', 'nothing-like-it');
    await expect.poll(() => page.textContent('#count')).toBe('No case matches.');
    expect(seen.errors).toEqual([]);
    await page.close();
  });

  it('opens a case as the answers side by side with word diffs against the reference, and a deep link restores it', async () => {
    const { page, seen } = await open();
    await page.click('#rows button.open >> text=refunds/refund');
    await expect.poll(() => inPage<string>(page, 'location.hash')).toBe('#case=refunds%2Frefund');
    const panes = page.locator('#detail .pane');
    expect(await panes.count()).toBe(4);
    expect(await panes.nth(0).locator('pre').textContent()).toBe(
      'Refunds are accepted within 30 days of purchase.',
    );
    expect(await panes.nth(1).locator('del').allTextContents()).toEqual(['30']);
    expect(await panes.nth(1).locator('ins').allTextContents()).toEqual(['14']);
    expect(await panes.nth(2).locator('ins, del').count()).toBe(0);
    expect(await panes.nth(3).textContent()).toContain('no answer');
    expect(await page.locator('#rows tr.selected button.open').textContent()).toBe('refunds/refund');
    await page.screenshot({ path: join(SHOTS, 'compare-case.png') });
    await page.close();

    const linked = await open('#case=refunds%2Fgreeting');
    expect(await linked.page.locator('#detail h2').textContent()).toBe('refunds/greeting');
    expect(await linked.page.locator('#detail').isVisible()).toBe(true);
    expect(await linked.page.locator('#detail .pane').nth(2).locator('ins').allTextContents()).toEqual([
      ' there',
    ]);
    // A hash change opens another; clearing it closes the panel.
    await linked.page.evaluate('location.hash = "#case=refunds%2Frefund"');
    await expect.poll(() => linked.page.locator('#detail h2').textContent()).toBe('refunds/refund');
    await linked.page.click('#detail button:has-text("close")');
    expect(await linked.page.locator('#detail').isHidden()).toBe(true);
    expect([...seen.errors, ...linked.seen.errors]).toEqual([]);
    expect([...seen.requests, ...linked.seen.requests]).toEqual([]);
    await linked.page.close();
  });

  it('runs nothing from hostile model output', async () => {
    const { page, seen } = await open();
    for (const i of [0, 1, 2]) {
      await page.click(`#rows button.open >> text=refunds/xss-${i}`);
      await expect.poll(() => page.locator('#detail h2').textContent()).toBe(`refunds/xss-${i}`);
    }
    await page.waitForTimeout(200); // let any injected onerror fire, had one been injected
    expect(seen.dialogs).toEqual([]);
    expect(await inPage<unknown>(page, 'window.__xss')).toBeUndefined();
    expect(await page.locator('img, iframe, object, embed').count()).toBe(0);
    expect(await page.locator('[onerror], [onload]').count()).toBe(0);
    expect(await page.locator('script').count()).toBe(2);
    // Shown literally: the candidate's answer, diffed against its baseline text.
    const answer = page.locator('#detail .pane').nth(1).locator('pre');
    expect(await answer.textContent()).toBe(`${HOSTILE[2]} beforenow`);
    expect(await answer.locator('del').allTextContents()).toEqual(['before']);
    expect(await answer.locator('ins').allTextContents()).toEqual(['now']);
    expect(await page.locator('article.card h2').first().textContent()).toBe('★ <b>mini</b>');
    expect(seen.errors).toEqual([]);
    expect(seen.requests).toEqual([]);
    await page.close();
  });

  it('fits a 375 px phone screen without sideways scrolling of the page', async () => {
    const { page } = await open('#case=refunds%2Frefund', { width: 375, height: 800 });
    expect(await inPage<boolean>(page, 'document.documentElement.scrollWidth <= window.innerWidth')).toBe(
      true,
    );
    await page.screenshot({ path: join(SHOTS, 'compare-phone.png'), fullPage: true });
    await page.close();
  });
});
