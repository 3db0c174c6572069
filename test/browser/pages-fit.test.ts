import { readdir } from 'node:fs/promises';
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
