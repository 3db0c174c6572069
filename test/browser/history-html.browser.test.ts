import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, skipBrowser } from '../helpers/browser.js';
import { renderTrendPage } from '../../src/history/page/render.js';
import type { History, HistoryCaseInput } from '../../src/stored/history/types.js';
import { makeCase, makeRun } from '../history/fixture.js';

const NIGHTS = 40;
const steady = (night: number) => (night % 3 ? 10 : 9);

/** 40 nights of two suites: steady, failing since night 30, flapping, and slowly dropping cases. */
function fixtureHistory(): History {
  const runs = Array.from({ length: NIGHTS }, (_, night) => {
    const cases: HistoryCaseInput[] = [
      makeCase('steady', { passes: 10 }),
      night >= 30 ? makeCase('broken', { status: 'fail', passes: 2 }) : makeCase('broken'),
      night % 2 ? makeCase('flaky', { status: 'fail', passes: 5 }) : makeCase('flaky'),
      makeCase('sliding', {
        passes: night >= 25 ? 6 : steady(night),
        status: night >= 25 || steady(night) < 10 ? 'fail' : 'pass',
      }),
      makeCase('release-notes', { suite: 'direct <b>x</b>', model: 'm', provider: null }),
    ];
    const run = makeRun(night, {
      ...(night === 5 ? { status: 'paused', exit_code: 3 } : {}),
      // A candidate run added to the history with --force: the page marks it.
      ...(night === 7
        ? {
            provenance: { candidate: 'acme/chat-9', sim: false, shard: null, partial: false, forced: true },
          }
        : {}),
      suites: [
        {
          suite: 'support',
          models: [night < 10 ? 'acme/chat-1' : 'acme/chat-2'],
          providers: [night < 20 ? 'Acme' : 'Beta'],
          baseline_source_run: 'base-1',
        },
        { suite: 'direct <b>x</b>', models: ['m'], providers: [], baseline_source_run: null },
      ],
    });
    return { ...run, cases };
  });
  return {
    runs,
    baselines: [
      { suite: 'direct <b>x</b>', source_run: 'base-2', at: runs[12]!.started_at.replace('T02', 'T03') },
    ],
    problems: [],
  };
}

interface Opened {
  page: Page;
  requests: string[];
  errors: string[];
}

describe.skipIf(skipBrowser)('trend page in headless Chromium', () => {
  let browser: Browser;
  let dir: string;
  let file: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'driftcheck-trend-'));
    file = join(dir, 'trend.html');
    await writeFile(file, renderTrendPage(fixtureHistory()));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function open(hash = '', viewport = { width: 1280, height: 900 }): Promise<Opened> {
    const url = pathToFileURL(file).href;
    const page = await browser.newPage({ viewport });
    const opened: Opened = { page, requests: [], errors: [] };
    page.on('request', (r) => {
      if (r.url().split('#')[0] !== url && !r.url().startsWith('data:')) opened.requests.push(r.url());
    });
    page.on('pageerror', (e) => opened.errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') opened.errors.push(m.text());
    });
    await page.goto(url + hash);
    await page.waitForFunction('document.documentElement.dataset.ready === "true"');
    return opened;
  }
  const rowIds = (page: Page) => page.locator('#rows td.id').allTextContents();
  const clean = (o: Opened) => {
    expect(o.errors).toEqual([]);
    expect(o.requests).toEqual([]);
  };

  it('filters cases by view, suite and search', async () => {
    const o = await open();
    const { page } = o;
    // Trending first (a sudden break is a trend too), then failing now, then by id.
    expect(await rowIds(page)).toEqual([
      'support/broken',
      'support/sliding',
      'support/flaky',
      'direct <b>x</b>/release-notes',
      'support/steady',
    ]);
    const view = async (name: string) => {
      await page.click(`button.view[data-view="${name}"]`);
      return rowIds(page);
    };
    expect(await view('failing')).toEqual(['support/broken', 'support/sliding', 'support/flaky']);
    expect(await view('trending')).toEqual(['support/broken', 'support/sliding']);
    expect(await view('flaky')).toEqual(['support/flaky', 'support/sliding']);
    expect(await page.getAttribute('button.view[data-view="flaky"]', 'aria-pressed')).toBe('true');
    await view('all');
    await page.selectOption('#suite', 'direct <b>x</b>');
    expect(await rowIds(page)).toEqual(['direct <b>x</b>/release-notes']);
    expect(await page.locator('section.suite h2').allTextContents()).toEqual(['direct <b>x</b>']);
    await page.selectOption('#suite', '');
    await page.fill('#q', 'BROK');
    await expect.poll(() => rowIds(page)).toEqual(['support/broken']);
    await page.fill('#q', 'nothing-like-it');
    await expect.poll(() => page.textContent('#count')).toBe('No case matches.');
    clean(o);
    await page.close();
  });

  it('shows events on the timeline and ranks flaky cases by flips', async () => {
    const o = await open();
    const events = await o.page.locator('section.suite[data-suite="support"] ul.events li').allTextContents();
    expect(events).toEqual([
      '2026-11-06 · run paused (exit 3)',
      '2026-11-08 · forced: not a night (candidate acme/chat-9)',
      '2026-11-11 · model acme/chat-1 → acme/chat-2',
      '2026-11-21 · provider Acme → Beta',
    ]);
    const direct = await o.page
      .locator('section.suite[data-suite="direct <b>x</b>"] ul.events li')
      .allTextContents();
    expect(direct).toContain('2026-11-14 · baseline accepted from run base-2');
    // One dashed mark per event on each of the four charts.
    expect(await o.page.locator('section.suite[data-suite="support"] svg line.event').count()).toBe(16);
    expect(await o.page.locator('section.suite[data-suite="support"] svg line.event.forced').count()).toBe(4);
    // Flaky is the flaky view's rule (more than one flip): broken changed once, it is not listed.
    expect(await o.page.locator('#flaky td.id').allTextContents()).toEqual([
      'support/flaky',
      'support/sliding',
    ]);
    expect(await o.page.locator('#flaky tr >> nth=0 >> td >> nth=1').textContent()).toBe('39');
    clean(o);
    await o.page.close();
  });

  it('opens a case from a deep link, links each night to its report, and follows clicks', async () => {
    const o = await open('#support/broken');
    const { page } = o;
    await expect.poll(() => page.isVisible('#detail')).toBe(true);
    expect(await page.textContent('#detail h2')).toBe('support/broken');
    expect(await page.textContent('#detail p')).toContain('failing since 2026-12-01');
    const history = fixtureHistory();
    const newest = history.runs[NIGHTS - 1]!.run_id;
    expect(await page.getAttribute('#detail a.report-link >> nth=0', 'href')).toBe(
      `reports/${newest}/report.html#support/broken`,
    );
    expect(await page.locator('#detail li', { hasText: 'started failing' }).textContent()).toContain(
      '2026-12-01',
    );

    await page.click('#rows a:text-is("support/flaky")');
    await expect.poll(() => page.textContent('#detail h2')).toBe('support/flaky');
    expect(page.url().endsWith('#support/flaky')).toBe(true);
    await page.click('#detail a:text-is("close")');
    await expect.poll(() => page.isVisible('#detail')).toBe(false);

    // A cell of the heat map opens its row's case: row 3 is the fourth in the list (rows of
    // 16 px under the band of night names, data-top px tall).
    const fourth = (await rowIds(page))[3]!;
    const box = (await page.locator('#heat').boundingBox())!;
    const top = Number(await page.getAttribute('#heat', 'data-top'));
    await page.click('#heat', { position: { x: box.width - 3, y: top + 3.5 * 16 } });
    await expect.poll(() => page.textContent('#detail h2')).toBe(fourth);
    await page.click('#heat', { position: { x: box.width - 3, y: top + 8 } });
    await expect.poll(() => page.textContent('#detail h2')).toBe('support/broken');
    expect(await page.textContent('#detail p')).toContain('trending down 100 % → 20 % since 2026-12-01');
    clean(o);
    await page.close();
  });

  it('keeps markup in names as text and applies its CSP', async () => {
    const o = await open('#direct%20%3Cb%3Ex%3C%2Fb%3E%2Frelease-notes');
    expect(await o.page.textContent('#detail h2')).toBe('direct <b>x</b>/release-notes');
    expect(await o.page.locator('b').count()).toBe(0);
    const csp = await o.page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content');
    expect(csp).toContain("default-src 'none'");
    // Trusted Types: no string ever becomes script, even from inside the page.
    await expect(
      o.page.evaluate(
        `document.body.append(Object.assign(document.createElement('script'), { textContent: 'window.pwned = 1' }))`,
      ),
    ).rejects.toThrow(/TrustedScript/);
    // An inline style attribute is refused by style-src and reported as a violation.
    const violated = await o.page.evaluate(`new Promise((resolve) => {
      document.addEventListener('securitypolicyviolation', (e) => resolve(e.violatedDirective));
      const p = document.createElement('p');
      p.setAttribute('style', 'color: red');
      document.body.append(p);
      setTimeout(() => resolve('none'), 2000);
    })`);
    expect(String(violated)).toMatch(/^style-src/);
    expect(await o.page.evaluate('window.pwned')).toBeUndefined();
    await o.page.close();
  });

  it('fits a 375 px phone screen without sideways scrolling', async () => {
    const o = await open('#support/sliding', { width: 375, height: 812 });
    expect(await o.page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    expect(await o.page.isVisible('#detail')).toBe(true);
    clean(o);
    await o.page.close();
  });
});
