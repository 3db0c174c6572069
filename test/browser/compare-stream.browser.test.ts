import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { launchChromium, openReady, skipBrowser, watchedPage } from '../helpers/browser.js';
import { makeProject, REPO } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';
import type { Comparison } from '../../src/compare/types.js';

const ENV = { DRIFTCHECK_SIM_SEED: '7' };
const HOSTILE = '<img src=x onerror="window.__xss=1;alert(1)">';

// Claude Sonnet 4.5 on the router: on Google Vertex its first token is slow (the simulator's
// standing trait), on Anthropic it is not.
const SUITE = `suite: chat
service: router
model: anthropic/claude-sonnet-4.5
params: { max_tokens: 256, temperature: 0 }
cases:
  - id: refund
    prompt: What is the refund window?
    repeat: 3
  - id: hours
    prompt: What are your opening hours?
  - id: markup
    prompt: Show me the banner.
    sim: { reply: ${JSON.stringify(`${HOSTILE} Welcome to ACME.`)} }
`;

/** `run --sim --providers anthropic,google-vertex` (streamed or not): its comparison and compare.html's address. */
async function compareProviders(
  dir: string,
  stream: boolean,
): Promise<{ comparison: Comparison; html: string }> {
  const run = await runMain(
    ['run', '--sim', '--providers', 'anthropic,google-vertex', ...(stream ? ['--stream'] : []), 'suites'],
    { cwd: dir, env: ENV },
  );
  expect(run.code, run.stderr).toBe(0);
  const file = /compare: .*?(\S+compare\.json)/.exec(run.stderr)![1]!;
  const comparison = JSON.parse(await readFile(join(dir, file), 'utf8')) as Comparison;
  return { comparison, html: pathToFileURL(join(dir, file.replace(/compare\.json$/, 'compare.html'))).href };
}

// compare.html of two providers asked for streams: each candidate's time to first token
// (p50/p95) beside its cost and pass rate, compare.json holding the figures, and the chart's
// horizontal axis a reader can switch from cost to time to first token. A comparison that
// did not stream shows neither the row nor the choice.
describe.skipIf(skipBrowser)('compare.html: time to first token (CLI → Chromium)', () => {
  let project: Awaited<ReturnType<typeof makeProject>>;
  let browser: Browser;
  let page: Page;
  let streamed: { comparison: Comparison; html: string };
  let plain: { comparison: Comparison; html: string };
  const errors: string[] = [];

  beforeAll(async () => {
    project = await makeProject({ 'suites/chat.yaml': SUITE });
    streamed = await compareProviders(project.dir, true);
    plain = await compareProviders(project.dir, false);
    browser = await launchChromium();
    page = await watchedPage(browser, errors, { dialogs: true });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await project?.cleanup();
  });

  const open = (href: string) => openReady(page, href);
  /** A card's value of a term. */
  const fact = (index: number, term: string) =>
    page
      .locator(`article.card[data-candidate="${index}"] dt`, { hasText: term })
      .locator('xpath=following-sibling::dd[1]')
      .textContent();

  it("keeps each candidate's time to first token in compare.json, valid against its schema", async () => {
    const schema = JSON.parse(await readFile(join(REPO, 'schemas/compare.schema.json'), 'utf8'));
    const validate = new Ajv2020({ allErrors: true, strict: true }).compile(schema);
    for (const c of [streamed.comparison, plain.comparison])
      expect(validate(c), JSON.stringify(validate.errors)).toBe(true);
    const [anthropic, vertex] = streamed.comparison.candidates;
    expect([anthropic!.label, vertex!.label]).toEqual(['anthropic', 'google-vertex']);
    expect(anthropic!.ttft_ms!.samples).toBe(5);
    expect(vertex!.ttft_ms!.p50).toBeGreaterThan(anthropic!.ttft_ms!.p95);
    // Each case's median beside it; a run that did not stream has none.
    for (const row of streamed.comparison.cases)
      for (const cell of row.cells) expect(cell.ttft_ms).toEqual(expect.any(Number));
    expect(plain.comparison.candidates.map((c) => c.ttft_ms)).toEqual([null, null]);
    expect(plain.comparison.cases.flatMap((r) => r.cells).some((cell) => 'ttft_ms' in cell)).toBe(false);
  });

  it("shows each candidate's time to first token beside its cost and pass rate", async () => {
    await open(streamed.html);
    const terms = await page.locator('article.card[data-candidate="0"] dt').allTextContents();
    expect(terms.indexOf('time to first token p50 / p95')).toBe(terms.indexOf('latency p50 / p95') + 1);
    for (const [i, c] of streamed.comparison.candidates.entries()) {
      expect(await fact(i, 'time to first token')).toBe(`${c.ttft_ms!.p50} / ${c.ttft_ms!.p95} ms`);
      expect(await fact(i, 'pass rate')).toMatch(
        new RegExp(`^100% \\(${c.pass_rate!.passed}/${c.pass_rate!.total};`),
      );
    }
  });

  it('lets the reader put time to first token on the chart’s axis, and back', async () => {
    await open(streamed.html);
    const axis = page.locator('#chart-axis');
    expect(await axis.isEnabled()).toBe(true);
    expect(await axis.locator('option').allTextContents()).toEqual([
      'cost per 1,000 cases',
      'time to first token p50',
    ]);
    const x = (label: string) =>
      page
        .locator('#chart g.point', { hasText: label })
        .locator('circle.dot')
        .getAttribute('cx')
        .then(Number);
    expect(await page.locator('#chart .axis-title').first().textContent()).toMatch(/^cost per 1,000 cases/);
    const cheaper = (await x('google-vertex')) < (await x('anthropic'));
    expect(cheaper).toBe(
      streamed.comparison.candidates[1]!.cost.per_1000_cases! <
        streamed.comparison.candidates[0]!.cost.per_1000_cases!,
    );
    await axis.selectOption('ttft');
    await expect
      .poll(() => page.locator('#chart .axis-title').first().textContent())
      .toMatch(/^time to first token p50 \(ms\)/);
    expect(await page.locator('#chart-title').textContent()).toMatch(
      /^Time to first token against pass rate/,
    );
    // Google Vertex, slower to its first token, stands to the right; the frontier is cost's alone.
    expect(await x('google-vertex')).toBeGreaterThan(await x('anthropic'));
    expect(await page.locator('#chart g.point').count()).toBe(2);
    expect(await page.locator('#chart g.point.frontier').count()).toBe(0);
    // Its ticks in milliseconds (linear from zero, or logarithmic when the two are ten times apart).
    const ticks = await page.locator('#chart .tick').allTextContents();
    expect(ticks.filter((t) => /^\d+ ms$/.test(t))).toHaveLength(3);
    await axis.selectOption('cost');
    await expect
      .poll(() => page.locator('#chart .axis-title').first().textContent())
      .toMatch(/^cost per 1,000 cases/);
    expect(await page.locator('#chart g.point.frontier').count()).toBeGreaterThan(0);
    expect(await page.locator('#chart-title').textContent()).toMatch(/^Cost against pass rate/);
  });

  it("shows a case's time to first token under each candidate, its markup as text", async () => {
    await openReady(page, `${streamed.html}#case=${encodeURIComponent('chat/markup')}`);
    const panes = page.locator('#detail .pane');
    await expect.poll(() => panes.count()).toBe(3);
    const row = streamed.comparison.cases.find((r) => r.id === 'chat/markup')!;
    for (const [i, cell] of row.cells.entries()) {
      const pane = panes.nth(i + 1);
      const value = pane
        .locator('dt', { hasText: 'time to first token' })
        .locator('xpath=following-sibling::dd[1]');
      expect(await value.textContent()).toBe(`${cell.ttft_ms} ms`);
      expect(await pane.textContent()).toContain(HOSTILE);
    }
    expect(await page.locator('#detail img').count()).toBe(0);
    expect(await page.evaluate('window.__xss')).toBeUndefined();
  });

  it('shows neither the row nor the choice of axis when no candidate streamed', async () => {
    await open(plain.html);
    expect(await page.locator('article.card dt', { hasText: 'time to first token' }).count()).toBe(0);
    expect(await page.locator('#chart-axis').count()).toBe(0);
    expect(await page.locator('#chart g.point').count()).toBe(2);
    expect(await page.locator('#chart-title').textContent()).toMatch(/^Cost against pass rate/);
    expect(errors).toEqual([]);
  });
});
