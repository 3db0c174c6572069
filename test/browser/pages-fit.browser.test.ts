import { readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CUT_OFF_WITHOUT_CUE, launchChromium, skipBrowser } from '../helpers/browser.js';
import { copyFromRepo, makeProject, runCli } from '../helpers/cli.js';

/** Where the screenshots go, to be looked at (not compared). */
const SHOTS = process.env.DRIFTCHECK_SHOTS ?? tmpdir();

/** Runs code in the page, given as source text (this project compiles without the DOM library). */
async function inPage<T>(page: Page, source: string): Promise<T> {
  return (await page.evaluate(source)) as T;
}

const WIDTHS = [1280, 375] as const;

/**
 * The demo's pages as a user makes them (the CLI, the embedded simulator): report.html of
 * a run with repeats, and compare.html of two candidates with repeats — at 1280 and 375 px.
 */
describe.skipIf(skipBrowser)(
  'report.html and compare.html fit a wide and a phone screen (CLI → Chromium)',
  () => {
    let browser: Browser;
    let project: Awaited<ReturnType<typeof makeProject>>;
    let reportHtml: string;
    let compareHtml: string;
    const errors: string[] = [];

    beforeAll(async () => {
      project = await makeProject({});
      await copyFromRepo(project.dir, 'suites/demo', 'baselines');
      const run = await runCli(['run', '--sim', 'suites/demo', '--repeat', '5', '--report-dir', 'night'], {
        cwd: project.dir,
      });
      expect(run.code, run.stderr).toBe(1);
      const night = (await readdir(join(project.dir, 'night'))).find((d) => /^\d/.test(d))!;
      reportHtml = join(project.dir, 'night', night, 'report.html');
      const models = await runCli(
        [
          'run',
          '--sim',
          'suites/demo',
          '--models',
          'openai/gpt-4o-mini,anthropic/claude-sonnet-4.5',
          '--repeat',
          '5',
          '--report-dir',
          'candidates',
        ],
        { cwd: project.dir },
      );
      expect(models.code, models.stderr).toBe(1);
      const folder = (await readdir(join(project.dir, 'candidates'))).find((d) => d.startsWith('compare-'))!;
      compareHtml = join(project.dir, 'candidates', folder, 'compare.html');
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
      await project?.cleanup();
    });

    async function open(file: string, width: number): Promise<Page> {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(pathToFileURL(file).href);
      await page.waitForFunction('document.documentElement.dataset.ready === "true"');
      return page;
    }

    it.each(WIDTHS)(
      "report.html at %i px: a repeated case's sample count sits in its row, on its id's line",
      async (width) => {
        const page = await open(reportHtml, width);
        await page.screenshot({ path: join(SHOTS, `report-${width}.png`), fullPage: true });
        const rows = await inPage<{ id: string; inside: boolean; sameLine: boolean }[]>(
          page,
          `[...document.querySelectorAll('details.case > summary')].filter((s) => s.querySelector('.samples')).map((s) => {
        const box = s.getBoundingClientRect();
        const n = s.querySelector('.samples').getBoundingClientRect();
        const id = s.querySelector('.id').getBoundingClientRect();
        return {
          id: s.querySelector('.id').textContent,
          inside: n.left >= box.left && n.right <= box.right && n.top >= box.top && n.bottom <= box.bottom,
          sameLine: n.top < id.bottom && n.bottom > id.top,
        };
      })`,
        );
        // Every case of the demo ran 5 samples.
        expect(rows.length).toBeGreaterThan(10);
        for (const r of rows) expect(r, r.id).toMatchObject({ inside: true, sameLine: true });
        await page.close();
      },
    );

    it.each(WIDTHS)(
      'report.html at %i px: nothing is cut off without a cue; wide tables scroll and say so',
      async (width) => {
        const page = await open(reportHtml, width);
        expect(await inPage<string[]>(page, CUT_OFF_WITHOUT_CUE)).toEqual([]);
        const marked = await inPage<string[]>(
          page,
          `[...document.querySelectorAll('.scroll')].map((b) => b.dataset.scroll)`,
        );
        // On a phone the suites' and the pass rates' tables are wider than the screen: marked.
        if (width === 375) expect(marked.filter((m) => m === 'right')).toHaveLength(2);
        else expect(marked.every((m) => m === '')).toBe(true);
        if (width === 375) {
          // Scrolled to its end, a box says there is more to its left.
          await page.evaluate(
            `(() => { const b = document.querySelector('.scroll'); b.scrollLeft = b.scrollWidth; })()`,
          );
          await expect
            .poll(() => inPage<string>(page, `document.querySelector('.scroll').dataset.scroll`))
            .toBe('left');
        }
        await page.close();
      },
    );

    it.each(WIDTHS)(
      'compare.html at %i px: the matrix scrolls with a cue, the chart fills its card at ≥ 10 px text',
      async (width) => {
        const page = await open(compareHtml, width);
        await page.screenshot({ path: join(SHOTS, `compare-${width}.png`), fullPage: true });
        expect(await inPage<string[]>(page, CUT_OFF_WITHOUT_CUE)).toEqual([]);
        const chart = await inPage<{ box: number; chart: number; smallest: number; texts: number }>(
          page,
          `(() => {
        const svg = document.getElementById('chart');
        const box = document.querySelector('.chart-box');
        const inner = box.clientWidth - parseFloat(getComputedStyle(box).paddingLeft) - parseFloat(getComputedStyle(box).paddingRight);
        // A text's size on screen: its font size in the chart's units times the chart's scale.
        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        const sizes = [...svg.querySelectorAll('text')].map((t) => parseFloat(getComputedStyle(t).fontSize) * scale);
        return { box: inner, chart: svg.getBoundingClientRect().width, smallest: Math.min(...sizes), texts: sizes.length };
      })()`,
        );
        expect(chart.texts).toBeGreaterThan(8);
        expect(chart.smallest).toBeGreaterThanOrEqual(10);
        expect(chart.chart).toBeGreaterThanOrEqual(chart.box * 0.95);
        if (width === 375)
          expect(await inPage<string>(page, `document.querySelector('.scroll.matrix').dataset.scroll`)).toBe(
            'right',
          );
        await page.close();
      },
    );

    it('compare.html: each chip counts the rows its filter shows', async () => {
      const page = await open(compareHtml, 1280);
      const chips = await inPage<{ view: string; count: number }[]>(
        page,
        `[...document.querySelectorAll('button.view')].map((b) => ({ view: b.dataset.view, count: Number(b.querySelector('b').textContent) }))`,
      );
      expect(chips.map((c) => c.view)).toEqual(['all', 'regressed', 'changed', 'failing', 'missing']);
      // The demo's candidates regress cases between them more often than there are such cases.
      const regressedCells = await inPage<number>(
        page,
        `JSON.parse(document.getElementById('compare-data').textContent).candidates.reduce((n, c) => n + c.changes.regressed, 0)`,
      );
      const regressedChip = chips.find((c) => c.view === 'regressed')!.count;
      expect(regressedCells).toBeGreaterThan(regressedChip);
      for (const chip of chips) {
        await page.click(`button.view[data-view="${chip.view}"]`);
        while (await page.locator('#more').isVisible()) await page.click('#more');
        expect(await page.locator('#rows tr').count(), chip.view).toBe(chip.count);
      }
      await page.close();
      expect(errors).toEqual([]);
    });
  },
);

/**
 * The trend page as a user makes it: four runs of the demo (`history add` of each), the
 * last one with `support-demo/order-json` newly failing, then `driftcheck history`. The runs
 * are seconds apart, so every night has one date; direct-demo's model has no price.
 */
describe.skipIf(skipBrowser)('the trend page reads at a glance (CLI → Chromium)', () => {
  let browser: Browser;
  let project: Awaited<ReturnType<typeof makeProject>>;
  let file: string;
  const NIGHTS = 4;

  beforeAll(async () => {
    project = await makeProject({});
    await copyFromRepo(project.dir, 'suites/demo', 'baselines');
    // Seeded: the demo's tools-demo/refund fails 8 in 10 tool calls at random.
    let seed = 0;
    const night = async () => {
      const run = await runCli(['run', '--sim', 'suites/demo', '--report-dir', 'nights'], {
        cwd: project.dir,
        env: { DRIFTCHECK_SIM_SEED: String(++seed) },
      });
      expect(run.code, run.stderr).toBe(1);
    };
    for (let i = 0; i < NIGHTS - 1; i++) await night();
    const support = join(project.dir, 'suites/demo/support.yaml');
    const text = await readFile(support, 'utf8');
    const asked =
      '      - { role: user, content: "Return the order as JSON with the fields order_id and status." }\n';
    expect(text).toContain(asked);
    await writeFile(support, text.replace(asked, `${asked}    sim: { reply: "not json" }\n`));
    await night();
    const runs = (await readdir(join(project.dir, 'nights'))).filter((d) => /^\d/.test(d)).sort();
    expect(runs).toHaveLength(NIGHTS);
    const added = await runCli(['history', 'add', 'history', ...runs.map((r) => join('nights', r))], {
      cwd: project.dir,
    });
    expect(added.code, added.stderr).toBe(0);
    const page = await runCli(['history', 'history', '--out', 'trend.html'], { cwd: project.dir });
    expect(page.code, page.stderr).toBe(0);
    file = join(project.dir, 'trend.html');
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await project?.cleanup();
  });

  async function open(width: number): Promise<Page> {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    await page.goto(pathToFileURL(file).href);
    await page.waitForFunction('document.documentElement.dataset.ready === "true"');
    return page;
  }
  const figure = (page: Page, suite: string, title: string) =>
    page.locator(`section.suite[data-suite="${suite}"] figure`, { hasText: title });

  it.each(WIDTHS)(
    'at %i px: tonight first, costs per 1,000 cases, nights told apart, nothing cut off',
    async (width) => {
      const page = await open(width);
      await page.screenshot({ path: join(SHOTS, `trend-${width}.png`), fullPage: true });
      expect(await inPage<string[]>(page, CUT_OFF_WITHOUT_CUE)).toEqual([]);
      // Tonight's summary leads the page: what fails, what started tonight, trends, new cases.
      expect(await page.textContent('#tonight h2')).toMatch(/^Tonight: .* · exit 1 · 29 of 29 cases ran$/);
      expect(await page.locator('#tonight button.fact').allTextContents()).toEqual([
        '11 failing now',
        '1 started failing tonight',
        '0 trending down',
        '0 new tonight',
      ]);
      expect(await page.textContent('#tonight p.named')).toBe(
        'started failing tonight: support-demo/order-json',
      );
      // A cheap suite's cost axis in significant digits, per 1,000 cases; never $0.0000.
      const cost = figure(page, 'support-demo', 'cost per 1,000 cases (USD)');
      const ticks = await cost.locator('.y-axis span').allTextContents();
      expect(ticks).toHaveLength(3);
      expect(ticks[2]).toBe('$0');
      for (const t of ticks.slice(0, 2)) expect(t).toMatch(/^\$0\.0*[1-9]\d{0,2}$/);
      expect(await cost.locator('.readout').textContent()).toMatch(/^latest \$0\.0\d+$/);
      // A suite whose model has no price says so, not "did not run", and draws no scale.
      const unpriced = figure(page, 'direct-demo', 'cost per 1,000 cases (USD)');
      expect(await unpriced.locator('.readout').textContent()).toBe('no cost reported (no prices)');
      expect(await unpriced.locator('.y-axis span').count()).toBe(0);
      // Nights of one date are told apart under the charts by their times, and over the heat
      // map every column is named.
      const axis = await figure(page, 'support-demo', 'pass rate').locator('.x-axis span').allTextContents();
      expect(new Set(axis).size).toBe(3);
      for (const a of axis) expect(a).toMatch(/^\d\d:\d\d(:\d\d)?$/);
      expect(await page.getAttribute('#heat', 'data-named')).toBe(String(NIGHTS));
      // No case flipped twice: the flaky section says none instead of an empty table.
      expect(await page.isVisible('#flaky-table')).toBe(false);
      expect(await page.textContent('#flaky-none')).toMatch(
        /^None: no case went between pass and fail more than once/,
      );
      await page.close();
    },
  );

  it('each count of tonight and each chip lists exactly that many cases when clicked', async () => {
    const page = await open(1280);
    for (const selector of ['#tonight button.fact', 'header button.view']) {
      const buttons = page.locator(selector);
      for (let i = 0; i < (await buttons.count()); i++) {
        const button = buttons.nth(i);
        const text = (await button.textContent())!;
        const count = Number(/\d+/.exec(text)![0]);
        await button.click();
        while (await page.locator('#more').isVisible()) await page.click('#more');
        expect(await page.locator('#rows tr').count(), text).toBe(count);
      }
    }
    await page.close();
  });
});
