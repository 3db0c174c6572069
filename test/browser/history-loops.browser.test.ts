import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openReady, skipBrowser, watchedPage } from '../helpers/browser.js';
import { copyFromRepo, makeProject, readReport, REPO, runCli, runDirFrom } from '../helpers/cli.js';
import { PLAIN_SUITE, storedByNight } from '../helpers/tool-nights.js';
import { trajectoryDigest } from '../../src/history/from-report-v2.js';
import type { Report } from '../../src/stored/report/types.js';

const ENV = { DRIFTCHECK_SIM_SEED: '7' };

// The trend page plots a suite's conversations over the nights: the requests per conversation
// and the rate that finished within max_steps, from what the history keeps of each case and
// night (`sp`: steps and within max_steps; `tj`: the trajectory's digest). Three nights of
// the demo's agent suite on the simulator: one that behaves (the suite without its `sim:`
// lines), the demo's own (one case loops to max_steps, one stops a request early), and one
// where three cases loop.
describe.skipIf(skipBrowser)('the trend page plots conversations (CLI → Chromium)', () => {
  let project: Awaited<ReturnType<typeof makeProject>>;
  let browser: Browser;
  let page: Page;
  const reports: Report[] = [];
  /** Per night, `suite/case` → its stored line. */
  const stored: Map<string, Record<string, unknown>>[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    // A suite of single requests beside the agent suite: its history lines and charts must not change.
    project = await makeProject({ 'suites/plain.yaml': PLAIN_SUITE });
    await copyFromRepo(project.dir, 'baselines');
    const shipped = await readFile(join(REPO, 'suites/demo/agent.yaml'), 'utf8');
    const behaving = shipped.replace(/\n\s+sim: \{[^}]*\}/g, '');
    const looping = shipped.replace(/agent_fault: \w+/g, 'agent_fault: loop');
    expect(new Set([behaving, shipped, looping]).size).toBe(3);
    for (const suite of [behaving, shipped, looping]) {
      await writeFile(join(project.dir, 'suites/agent.yaml'), suite);
      const run = await runCli(['run', '--sim', 'suites', '--reporter', 'json'], {
        cwd: project.dir,
        env: ENV,
      });
      const dir = runDirFrom(run, project.dir);
      const add = await runCli(['history', 'add', 'history', dir], { cwd: project.dir, env: ENV });
      expect(add.code, add.stderr).toBe(0);
      reports.push(await readReport(dir));
    }
    stored.push(...(await storedByNight(project.dir)));
    const rendered = await runCli(['history', 'history', '--out', 'trend.html'], {
      cwd: project.dir,
      env: ENV,
    });
    expect(rendered.code, rendered.stderr).toBe(0);
    browser = await launchChromium();
    page = await watchedPage(browser, errors);
    await openReady(page, join(project.dir, 'trend.html'));
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await project?.cleanup();
  });

  const suiteFigure = (suite: string, title: string) =>
    page.locator(`section.suite[data-suite="${suite}"] figure`, { hasText: title });
  const readout = (figure: Locator) => figure.locator('.readout').textContent();

  it('keeps each conversation’s steps, its within-max_steps count and its trajectory’s digest per night', () => {
    const line = (night: number, c: string) => stored[night]!.get(`agent-demo/${c}`)!;
    // The kettle: three requests on the behaving night; four, stopped at max_steps, on the others.
    expect([0, 1, 2].map((n) => line(n, 'return-kettle').sp)).toEqual([
      [3, 1],
      [4, 0],
      [4, 0],
    ]);
    // The digest is of the first sample's tools, as report.json lists them.
    reports.forEach((report, night) => {
      for (const c of report.cases.filter((x) => x.suite === 'agent-demo'))
        expect(line(night, c.case).tj).toBe(trajectoryDigest(c.trajectory!.calls.map((k) => k.tool)));
    });
    expect(line(0, 'return-kettle').tj).not.toBe(line(1, 'return-kettle').tj);
    expect(line(1, 'return-kettle').tj).toBe(line(2, 'return-kettle').tj);
    // A case of single requests keeps neither key: its history is as large as before.
    for (const night of stored) expect(Object.keys(night.get('plain/greeting')!)).not.toContain('sp');
    expect(Object.keys(stored[0]!.get('plain/greeting')!)).not.toContain('tj');
  });

  it("plots the agent suite's steps per conversation and its within-max_steps rate, and none for the plain suite", async () => {
    const sums = stored.map((night) =>
      [...night.entries()]
        .filter(([id]) => id.startsWith('agent-demo/'))
        .reduce(
          (a, [, l]) => [
            a[0]! + (l.n as number),
            a[1]! + (l.sp as number[])[0]!,
            a[2]! + (l.sp as number[])[1]!,
          ],
          [0, 0, 0],
        ),
    );
    expect(sums).toEqual([
      [4, 11, 4],
      [4, 11, 3],
      [4, 14, 1],
    ]);
    const steps = suiteFigure('agent-demo', 'steps per conversation');
    const within = suiteFigure('agent-demo', 'within max_steps');
    await expect.poll(() => steps.count()).toBe(1);
    expect(await within.count()).toBe(1);
    expect(await readout(steps)).toBe('latest 3.5 (14 over 4 samples)');
    expect(await readout(within)).toBe('latest 25 % (1/4)');
    // The first night under the pointer: every conversation finished within max_steps.
    for (const [figure, text] of [
      [steps, '2.75 (11 over 4 samples)'],
      [within, '100 % (4/4)'],
    ] as const) {
      const box = (await figure.locator('svg.chart').boundingBox())!;
      await page.mouse.move(box.x + box.width / 6, box.y + box.height / 2);
      expect(await readout(figure)).toMatch(new RegExp(`: ${text.replace(/[()]/g, '\\$&')}$`));
    }
    await page.mouse.move(0, 0);
    expect(await within.locator('polyline').count()).toBe(1);
    expect(await suiteFigure('plain', 'pass rate').count()).toBe(1);
    expect(await suiteFigure('plain', 'steps per conversation').count()).toBe(0);
    expect(await suiteFigure('plain', 'within max_steps').count()).toBe(0);
  });

  it("opens a conversation with its own charts and each night's steps, within-max_steps count and trajectory", async () => {
    await page.evaluate(`location.hash = ${JSON.stringify('agent-demo/return-kettle')}`);
    await expect.poll(() => page.textContent('#detail h2')).toBe('agent-demo/return-kettle');
    expect(await page.locator('#detail figure', { hasText: 'steps per conversation' }).count()).toBe(1);
    expect(await page.locator('#detail figure', { hasText: 'within max_steps' }).count()).toBe(1);
    const digest = (night: number) => stored[night]!.get('agent-demo/return-kettle')!.tj as string;
    const first = (await page.locator('#detail li .night').allTextContents()).at(-1)!;
    // Newest night first; the second night's loop is another sequence of tools than the first's.
    expect(await page.locator('#detail li .loops').allTextContents()).toEqual([
      `steps 4 (4 over 1 sample) · within max_steps 0 % (0/1) · trajectory ${digest(2)}`,
      `steps 4 (4 over 1 sample) · within max_steps 0 % (0/1) · trajectory ${digest(1)} (other tools than on ${first})`,
      `steps 3 (3 over 1 sample) · within max_steps 100 % (1/1) · trajectory ${digest(0)}`,
    ]);
    await page.evaluate(`location.hash = ${JSON.stringify('plain/greeting')}`);
    await expect.poll(() => page.textContent('#detail h2')).toBe('plain/greeting');
    expect(await page.locator('#detail figure', { hasText: 'within max_steps' }).count()).toBe(0);
    expect(await page.locator('#detail li .loops').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
