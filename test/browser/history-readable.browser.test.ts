import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openReady, skipBrowser, watchedPage } from '../helpers/browser.js';
import { appendRun } from '../../src/stored/history/store.js';
import type { HistoryCaseInput } from '../../src/stored/history/types.js';
import { makeProject, runCli } from '../helpers/cli.js';
import { makeCase, makeRun } from '../history/fixture.js';

/**
 * 13 nightly runs at 02:00 and a re-run on the last date at 09:30, written as `history add`
 * writes them; the page is rendered by the CLI. `broken` drops to 1/10 on the last three
 * nights, `fresh` joins on night 9, `auto` took 40 samples on night 6.
 */
async function writeHistory(dir: string): Promise<void> {
  for (let night = 0; night < 14; night++) {
    const run = makeRun(Math.min(night, 12));
    const rerun = night === 13;
    const cases: HistoryCaseInput[] = [
      makeCase('steady'),
      night >= 11 ? makeCase('broken', { status: 'fail', passes: 1 }) : makeCase('broken'),
      night === 6 ? makeCase('auto', { status: 'fail', passes: 37, samples: 40 }) : makeCase('auto'),
      ...(night >= 9 ? [makeCase('fresh')] : []),
    ];
    await appendRun(
      dir,
      rerun
        ? { ...run, run_id: `${run.run_id}-rerun`, started_at: run.started_at.replace('T02:00', 'T09:30') }
        : run,
      cases,
    );
  }
}

describe.skipIf(skipBrowser)('the trend page can be read without guessing (CLI → Chromium)', () => {
  let browser: Browser;
  let project: Awaited<ReturnType<typeof makeProject>>;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    project = await makeProject({});
    await writeHistory(join(project.dir, 'history'));
    const rendered = await runCli(['history', 'history', '--out', 'trend.html'], { cwd: project.dir });
    expect(rendered.code, rendered.stderr).toBe(0);
    browser = await launchChromium();
    page = await watchedPage(browser, errors);
    await openReady(page, join(project.dir, 'trend.html'));
  });
  afterAll(async () => {
    await browser?.close();
    await project?.cleanup();
  });

  const figure = (title: string) =>
    page.locator('section.suite[data-suite="support"] figure', { hasText: title });

  it('charts have a y axis with values, an x axis of dates, and read out the night under the pointer', async () => {
    const rate = figure('pass rate');
    expect(await rate.locator('.y-axis span').allTextContents()).toEqual(['100 %', '50 %', '0 %']);
    // Two nights share 2026-11-13: the axis tells them apart by their time (and drops the year).
    expect(await rate.locator('.x-axis span').allTextContents()).toEqual(['11-01', '11-07', '11-13 09:30']);
    // Four cases of 10 samples on the last night, `broken` passing 1: 31 of 40.
    expect(await rate.locator('.readout').textContent()).toBe('latest 78 % (31/40 samples)');
    // Cost per 1,000 cases, to three significant digits (never $0.0000).
    const cost = await figure('cost per 1,000 cases (USD)').locator('.y-axis span').allTextContents();
    expect(cost.every((v) => v.startsWith('$'))).toBe(true);
    expect(cost[2]).toBe('$0');
    expect(cost.slice(0, 2).every((v) => Number(v.slice(1)) > 0)).toBe(true);
    const tokens = await figure('tokens').locator('.y-axis span').allTextContents();
    expect(tokens).toEqual(['10,000', '5,000', '0']);
    // The pointer over the first night: its date and value.
    const box = (await rate.locator('svg').boundingBox())!;
    await page.mouse.move(box.x + 2, box.y + box.height / 2);
    expect(await rate.locator('.readout').textContent()).toBe('2026-11-01: 100 % (30/30 samples)');
    await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2);
    expect(await rate.locator('.readout').textContent()).toBe('2026-11-13 09:30 UTC: 78 % (31/40 samples)');
  });

  it('the heat map labels its cases and nights, and a cell reads out its exact counts', async () => {
    const heat = page.locator('#heat');
    await heat.scrollIntoViewIfNeeded();
    const box = (await heat.boundingBox())!;
    // The labels are drawn: the band above the cells and the column left of them hold ink.
    const ink = await page.evaluate(`(() => {
      const canvas = document.getElementById('heat');
      const ctx = canvas.getContext('2d');
      const inked = (x, y, w, h) => ctx.getImageData(x, y, w, h).data.some((v, i) => i % 4 === 3 && v > 0);
      return { nights: inked(0, 0, canvas.width, 14), names: inked(0, Number(canvas.dataset.top), 60, 16) };
    })()`);
    expect(ink).toEqual({ nights: true, names: true });
    // The band of night names is as tall as the longest name, standing upright.
    const top = Number(await heat.getAttribute('data-top'));
    // The pointer over the last column of the first row (the list ranks `broken` first).
    await page.mouse.move(box.x + box.width - 3, box.y + top + 8);
    expect(await page.textContent('#heat-readout')).toBe(
      'support/broken · 2026-11-13 09:30 UTC · fail · 1/10 passed',
    );
    await page.mouse.move(box.x + box.width - 30, box.y + top + 8);
    expect(await page.textContent('#heat-readout')).toMatch(/^support\/broken · 2026-11-1\d( 02:00 UTC)? · /);
  });

  it('a night shows its exact counts, and two nights on one date are told apart', async () => {
    await page.evaluate(`location.hash = 'support/broken'`);
    await expect.poll(() => page.textContent('#detail h2')).toBe('support/broken');
    const nights = await page.locator('#detail li').allTextContents();
    expect(nights[0]).toMatch(/^2026-11-13 09:30 UTCfail1\/10 passedreport/);
    expect(nights[1]).toMatch(/^2026-11-13 02:00 UTCfail1\/10 passedreport/);
    expect(nights[2]).toMatch(/^2026-11-12fail1\/10 passed/);
    await page.evaluate(`location.hash = 'support/auto'`);
    await expect.poll(() => page.textContent('#detail h2')).toBe('support/auto');
    expect(await page.locator('#detail li', { hasText: '2026-11-07' }).textContent()).toContain(
      '37/40 passed',
    );
  });

  it("the trend column shows the detector's state for every case", async () => {
    const rows = await page
      .locator('#rows tr')
      .evaluateAll((trs) =>
        trs.map((tr) => [tr.querySelector('td.id')!.textContent, tr.querySelector('td.trend')!.textContent]),
      );
    expect(Object.fromEntries(rows)).toEqual({
      'support/broken': 'trending down 100 % → 10 % since 2026-11-12',
      'support/fresh': 'learning: 50 of 100 samples',
      'support/steady': 'steady at 100 % (140/140)',
      'support/auto': 'steady at 98 % (167/170)',
    });
    expect(errors).toEqual([]);
  });
});
