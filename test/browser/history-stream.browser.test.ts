import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openReady, skipBrowser, watchedPage } from '../helpers/browser.js';
import { makeProject, readReport, runDirFrom } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';
import { storedByNight } from '../helpers/tool-nights.js';
import { nearestRank } from '../../src/stats/nearest-rank.js';
import type { Report } from '../../src/stored/report/types.js';

const ENV = { DRIFTCHECK_SIM_SEED: '7' };

/** A suite that is not streamed: its lines keep no time to first token, its section plots none. */
const PLAIN = `suite: plain
service: router
model: openai/gpt-4o-mini
cases:
  - id: greeting
    prompt: "Say exactly: hello there"
`;

/**
 * Three streamed cases, one sampled five times; on a slow night each first token comes at
 * least 1.8 s later (a 600 ms delay, three times over). The suite tolerates 1 s
 * (drift.latency, which a time to first token is held to): a full check's load between two
 * behaving nights stays under it (a behaving night's median once reached 781 ms, and with
 * 400 ms tolerated the third night drew ttft_changed under that load), and the slow night
 * moves past it.
 */
function streamed(slow: boolean): string {
  const sim = slow ? '\n    sim: { stream_fault: slow_first_token, delay_ms: 600 }' : '';
  return `suite: chat
service: router
model: openai/gpt-4o-mini
params: { max_tokens: 256, temperature: 0, stream: true }
drift: { latency: { absolute_ms: 1000 } }
cases:
  - id: refund
    prompt: What is the refund window?
    repeat: 5${sim}
  - id: hours
    prompt: What are your opening hours?${sim}
  - id: shipping
    prompt: Do you ship to Canada?${sim}
`;
}

// The history keeps each streamed case's median time to first token per night (`tt`), and
// the trend page plots a suite's (the median over its streamed cases) over the nights, a
// case's in its own view. Three nights through the command on the simulator: one that
// behaves (its baseline accepted), one whose first tokens come late (the suite with
// `sim: { stream_fault: slow_first_token }`), one that behaves again; the first two added
// with `history add`, the third by `run --history`.
describe.skipIf(skipBrowser)('the trend page plots time to first token (CLI → Chromium)', () => {
  let project: Awaited<ReturnType<typeof makeProject>>;
  let browser: Browser;
  let page: Page;
  const reports: Report[] = [];
  /** Per night, `suite/case` → its stored line. */
  const stored: Map<string, Record<string, unknown>>[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    project = await makeProject({ 'suites/plain.yaml': PLAIN });
    for (const [night, slow] of [false, true, false].entries()) {
      await writeFile(join(project.dir, 'suites/chat.yaml'), streamed(slow));
      const last = night === 2;
      const args = [
        'run',
        '--sim',
        'suites',
        ...(night === 0 ? ['--update-baselines'] : []),
        ...(last ? ['--history', 'history', '--history-force'] : []),
      ];
      const run = await runMain(args, { cwd: project.dir, env: ENV });
      expect(run.code, run.stderr).toBe(0);
      const dir = runDirFrom(run, project.dir);
      if (!last) {
        const add = await runMain(['history', 'add', 'history', dir], { cwd: project.dir, env: ENV });
        expect(add.code, add.stderr).toBe(0);
      }
      reports.push(await readReport(dir));
    }
    stored.push(...(await storedByNight(project.dir)));
    const rendered = await runMain(['history', 'history', '--out', 'trend.html'], {
      cwd: project.dir,
      env: ENV,
    });
    expect(rendered.code, rendered.stderr).toBe(0);
    browser = await launchChromium();
    page = await watchedPage(browser, errors);
    await openReady(page, join(project.dir, 'trend.html'));
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await project?.cleanup();
  });

  const suiteFigure = (suite: string, title: string) =>
    page.locator(`section.suite[data-suite="${suite}"] figure`, { hasText: title });
  const readout = (figure: Locator) => figure.locator('.readout').textContent();
  /** A night's streamed cases' medians, as the reports say them. */
  const medians = (night: number) =>
    reports[night]!.cases.filter((c) => c.suite === 'chat').map((c) => c.streaming!.ttft_ms!.p50);
  /** A figure of milliseconds as the page writes it: whole, grouped by thousands (1,099 ms on a slow machine). */
  const ms = (n: number) => `${Math.round(n).toLocaleString('en')} ms`;
  /** The suite's figure for a night: the median of its cases' medians. */
  const suiteTtft = (night: number) => nearestRank(medians(night), 0.5)!;

  it("keeps each streamed case's median time to first token per night, and none for a case not streamed", () => {
    expect(stored).toHaveLength(3);
    reports.forEach((report, night) => {
      for (const c of report.cases.filter((x) => x.suite === 'chat'))
        expect(stored[night]!.get(`chat/${c.case}`)!.tt).toBe(c.streaming!.ttft_ms!.p50);
      expect(Object.keys(stored[night]!.get('plain/greeting')!)).not.toContain('tt');
    });
    // The slow night is slower on every case; the refund case's five samples say ttft_changed.
    for (const id of ['refund', 'hours', 'shipping'])
      expect(stored[1]!.get(`chat/${id}`)!.tt as number).toBeGreaterThan(
        stored[0]!.get(`chat/${id}`)!.tt as number,
      );
    expect(stored[1]!.get('chat/refund')!.dk).toContain('ttft_changed');
    expect(stored[2]!.get('chat/refund')!.dk ?? []).not.toContain('ttft_changed');
  });

  it("plots the streamed suite's time to first token, marks the night it changed, and plots none for the plain suite", async () => {
    const figure = suiteFigure('chat', 'time to first token p50');
    await expect.poll(() => figure.count()).toBe(1);
    expect(await readout(figure)).toBe(`latest ${ms(suiteTtft(2))} (3 streamed)`);
    // The slow night under the pointer (the middle of three).
    const box = (await figure.locator('svg.chart').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    expect(await readout(figure)).toMatch(new RegExp(`: ${ms(suiteTtft(1))} \\(3 streamed\\)$`));
    await page.mouse.move(0, 0);
    expect(suiteTtft(1)).toBeGreaterThan(suiteTtft(0));
    expect(await figure.locator('line.event.ttft_changed').count()).toBe(1);
    expect(
      await page.locator('section.suite[data-suite="chat"] ul.events li').allTextContents(),
    ).toContainEqual(expect.stringMatching(/time to first token changed: refund$/));
    expect(await suiteFigure('plain', 'pass rate').count()).toBe(1);
    expect(await suiteFigure('plain', 'time to first token').count()).toBe(0);
  });

  it("opens a streamed case with its own chart and each night's time to first token", async () => {
    await page.evaluate(`location.hash = ${JSON.stringify('chat/hours')}`);
    await expect.poll(() => page.textContent('#detail h2')).toBe('chat/hours');
    const figure = page.locator('#detail figure', { hasText: 'time to first token p50' });
    expect(await figure.count()).toBe(1);
    const tt = (night: number) => stored[night]!.get('chat/hours')!.tt as number;
    expect(await readout(figure)).toBe(`latest ${ms(tt(2))}`);
    // Newest night first.
    expect(await page.locator('#detail li .ttft').allTextContents()).toEqual(
      [2, 1, 0].map((n) => `time to first token p50 ${ms(tt(n))}`),
    );
    await page.evaluate(`location.hash = ${JSON.stringify('plain/greeting')}`);
    await expect.poll(() => page.textContent('#detail h2')).toBe('plain/greeting');
    expect(await page.locator('#detail figure', { hasText: 'time to first token' }).count()).toBe(0);
    expect(await page.locator('#detail li .ttft').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
