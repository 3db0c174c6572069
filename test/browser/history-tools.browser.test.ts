import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, skipBrowser } from '../helpers/browser.js';
import { runCli } from '../helpers/cli.js';
import { historyLines, TOOL_NIGHTS_ENV, toolNights, type ToolNights } from '../helpers/tool-nights.js';

/** `called 91 % (10/11), valid 9 % (1/11)`: what the page reads out for counts [answered, triggered, valid]. */
function toolText([answered, triggered, valid]: number[]): string {
  const pct = (a: number, b: number) => `${Math.round((100 * a) / b)} %`;
  return `called ${pct(triggered!, answered!)} (${triggered}/${answered}), valid ${
    triggered ? `${pct(valid!, triggered)} (${valid}/${triggered})` : '– (no call)'
  }`;
}

/** `called 10/11 · valid 1/10`: a tool chart's one-line read-out of the same counts. */
const chartText = ([answered, triggered, valid]: number[]): string =>
  `called ${triggered}/${answered} · valid ${triggered ? `${valid}/${triggered}` : '–'}`;

describe.skipIf(skipBrowser)('the trend page plots tool-call rates (CLI → Chromium)', () => {
  let browser: Browser;
  let nights: ToolNights;
  let page: Page;
  /** Per night, `suite/case` → its stored `tu`. */
  const stored: Map<string, number[] | undefined>[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    nights = await toolNights();
    for (const line of await historyLines(nights.dir)) {
      if (line.t === 'run') stored.push(new Map());
      else if (line.t === undefined)
        stored.at(-1)!.set(`${line.s}/${line.c}`, line.tu as number[] | undefined);
    }
    const rendered = await runCli(['history', 'history', '--out', 'trend.html'], {
      cwd: nights.dir,
      env: TOOL_NIGHTS_ENV,
    });
    expect(rendered.code, rendered.stderr).toBe(0);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(pathToFileURL(join(nights.dir, 'trend.html')).href);
    await page.waitForFunction('document.documentElement.dataset.ready === "true"');
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await nights?.cleanup();
  });

  const suiteFigure = (suite: string, title: string) =>
    page.locator(`section.suite[data-suite="${suite}"] figure`, { hasText: title });
  const detailFigure = (title: string) => page.locator('#detail figure', { hasText: title });
  async function openCase(id: string): Promise<void> {
    await page.evaluate(`location.hash = ${JSON.stringify(id)}`);
    await expect.poll(() => page.textContent('#detail h2')).toBe(id);
  }

  it("plots the tool suite's called and valid-call rates beside its pass rate, and none for the plain suite", async () => {
    const figure = suiteFigure('tools-demo', 'tool calls');
    await expect.poll(() => figure.count()).toBe(1);
    expect(await figure.locator('figcaption .key').allTextContents()).toEqual(['called', 'valid']);
    // Two lines: the called rate and the valid-call rate.
    expect(await figure.locator('polyline').count()).toBe(2);
    // The suite's counts are its tool cases' sums of the stored lines.
    const sum = (night: number) =>
      [...stored[night]!.values()]
        .filter((tu): tu is number[] => tu !== undefined)
        .reduce((a, tu) => a.map((x, i) => x + tu[i]!), [0, 0, 0]);
    expect(sum(0)).toEqual([12, 11, 11]);
    expect(await figure.locator('.readout').textContent()).toBe(`latest ${chartText(sum(2))}`);
    // The night under the pointer: the first, when every call was valid.
    const box = (await figure.locator('svg.chart').boundingBox())!;
    await page.mouse.move(box.x + box.width / 6, box.y + box.height / 2);
    expect(await figure.locator('.readout').textContent()).toMatch(/^\S.*: called 11\/12 · valid 11\/11$/);
    await page.mouse.move(0, 0);
    expect(await suiteFigure('tools-demo', 'pass rate').count()).toBe(1);

    expect(await suiteFigure('plain', 'pass rate').count()).toBe(1);
    expect(await suiteFigure('plain', 'tool calls').count()).toBe(0);
    expect(await page.locator('section.suite[data-suite="plain"] figcaption .key').count()).toBe(0);
  });

  it("opens a tool case with its own tool chart and each night's counts; a plain case has none", async () => {
    await openCase('tools-demo/refund');
    const refund = stored.map((n) => n.get('tools-demo/refund')!);
    expect(refund[0]).toEqual([10, 10, 10]);
    expect(refund[2]![2]).toBeLessThan(10);
    expect(await detailFigure('pass rate').count()).toBe(1);
    const tools = detailFigure('tool calls');
    expect(await tools.count()).toBe(1);
    expect(await tools.locator('.readout').textContent()).toBe(`latest ${chartText(refund[2]!)}`);
    // Newest night first, each with its exact counts.
    expect(await page.locator('#detail li .tools').allTextContents()).toEqual(
      [...refund].reverse().map((tu) => `tools: ${toolText(tu)}`),
    );

    // A case with tools that answered in text: called 0 %, and no valid-call rate to plot.
    await openCase('tools-demo/opening-hours');
    expect(await detailFigure('tool calls').locator('.readout').textContent()).toBe(
      'latest called 0/1 · valid –',
    );
    expect(await page.locator('#detail li .tools').first().textContent()).toBe(
      'tools: called 0 % (0/1), valid – (no call)',
    );

    await openCase('plain/greeting');
    expect(await detailFigure('pass rate').count()).toBe(1);
    expect(await detailFigure('tool calls').count()).toBe(0);
    expect(await page.locator('#detail li .tools').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
