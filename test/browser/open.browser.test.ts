import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, skipBrowser } from '../helpers/browser.js';
import { copyFromRepo, makeProject, runCli, runDirFrom } from '../helpers/cli.js';
import { type OpenProcess, startOpen } from '../helpers/open.js';

/** Where the screenshots go, to be looked at (not compared). */
const SHOTS = process.env.DRIFTCHECK_SHOTS ?? tmpdir();

const EVIL = `<!doctype html><title>&lt;img src=x onerror="window.__xss = 3"&gt;</title><script>window.__xss = 1</script><img src=x onerror="window.__xss = 2"><p>a page someone put there</p>`;

interface Seen {
  errors: string[];
  /** Requests anywhere but the server (or the file system). */
  outside: string[];
}

describe.skipIf(skipBrowser)(
  'driftcheck open in headless Chromium: the index of runs and the pages it links',
  () => {
    let browser: Browser;
    let project: Awaited<ReturnType<typeof makeProject>>;
    let server: OpenProcess;
    const runs: Record<string, string> = {};

    const open = async (url: string, width: number): Promise<{ page: Page; seen: Seen }> => {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      const seen: Seen = { errors: [], outside: [] };
      page.on('pageerror', (e) => seen.errors.push(e.message));
      page.on('request', (r) => {
        const u = r.url();
        if (!u.startsWith(server.url) && !u.startsWith('file:') && !u.startsWith('data:'))
          seen.outside.push(u);
      });
      await page.goto(url);
      return { page, seen };
    };

    beforeAll(async () => {
      project = await makeProject();
      await copyFromRepo(project.dir, 'suites/demo', 'baselines');
      const cli = (args: string[]) => runCli(args, { cwd: project.dir });
      runs.night = runDirFrom(await cli(['run', '--sim', 'suites/demo']), project.dir);
      const compared = await cli([
        'run',
        '--sim',
        'suites/demo',
        '--models',
        'openai/gpt-4o-mini,anthropic/claude-sonnet-4.5',
      ]);
      expect(compared.code).toBe(1);
      const tables = await cli([
        'run',
        '--sim',
        'suites/demo/tables.yaml',
        '--history',
        'history',
        '--history-force',
      ]);
      expect(tables.code, tables.stderr).toBe(0);
      runs.pass = runDirFrom(tables, project.dir);
      const trend = await cli(['history', 'history', '--out', 'reports/trend.html', '--report-base', '.']);
      expect(trend.code, trend.stderr).toBe(0);
      await writeFile(join(project.dir, 'reports/evil.html'), EVIL);
      browser = await launchChromium();
      server = await startOpen(['--no-open'], { cwd: project.dir });
    });
    afterAll(async () => {
      await server?.stop();
      await browser?.close();
      await project?.cleanup();
    });

    it('lists every run newest first with its verdict, date, counts and suites, the comparison and the trend page (1280 px)', async () => {
      const { page, seen } = await open(server.url, 1280);
      expect(await page.title()).toMatch(/^driftcheck runs — /);
      const items = page.locator('ol.runs > li');
      expect(await items.count()).toBe(4);
      expect(await page.locator('ol.runs > li .verdict').allTextContents()).toEqual([
        'PASS',
        'FAIL',
        'FAIL',
        'FAIL',
      ]);
      const newest = items.first();
      expect(await newest.locator('.tags').textContent()).toBe('latest · simulator');
      expect(await newest.locator('.counts').textContent()).toBe('6 cases · 6 passed');
      expect(await newest.locator('.suites').textContent()).toBe('suite table-demo');
      expect(await newest.locator('time').textContent()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
      const night = items.last();
      expect(await night.locator('.counts').textContent()).toBe(
        '29 cases · 19 passed · 6 failed · 4 errored · 10 regressed',
      );
      expect(await night.locator('.suites').textContent()).toBe(
        'suites agent-demo, direct-demo, streaming-demo, support-demo, table-demo, tools-demo',
      );
      expect(await page.locator('ol.runs > li .tags', { hasText: 'candidate' }).allTextContents()).toEqual([
        'simulator · candidate anthropic/claude-sonnet-4.5',
        'simulator · candidate openai/gpt-4o-mini',
      ]);
      const comparison = page.locator('ol.comparisons > li');
      expect(await comparison.count()).toBe(1);
      expect(await comparison.locator('.counts').textContent()).toMatch(
        /^openai\/gpt-4o-mini \d+\/25 passed · anthropic\/claude-sonnet-4\.5 \d+\/25 passed$/,
      );
      expect(await page.locator('ul.pages a').allTextContents()).toEqual(['evil.html', 'trend.html']);
      // Its title is shown as text, never as markup.
      expect(await page.locator('ul.pages .tags').allTextContents()).toEqual([
        '<img src=x onerror="window.__xss = 3">',
        'driftcheck history',
      ]);
      expect(await page.locator('ul.pages img').count()).toBe(0);
      expect(await page.evaluate('window.__xss')).toBeUndefined();
      await page.screenshot({ path: join(SHOTS, 'open-index-1280.png'), fullPage: true });
      expect(seen).toEqual({ errors: [], outside: [] });
    });

    it('each link opens its page, whose script runs under the CSP the server sends (report, compare, trend)', async () => {
      const { page, seen } = await open(server.url, 1280);
      await page.locator('ol.runs > li').last().locator('a', { hasText: 'report.html' }).click();
      await page.waitForFunction('document.documentElement.dataset.ready === "true"');
      expect(page.url()).toBe(`${server.url}${runs.night!.split('/').pop()}/report.html`);
      expect(await page.locator('details.case').count()).toBeGreaterThan(0);
      await page.goBack();
      await page.locator('ol.comparisons a', { hasText: 'compare.html' }).click();
      await page.waitForFunction('document.documentElement.dataset.ready === "true"');
      expect(await page.title()).toMatch(/^driftcheck compare: /);
      await page.goBack();
      await page.locator('ul.pages a', { hasText: 'trend.html' }).click();
      await page.waitForFunction('document.documentElement.dataset.ready === "true"');
      expect(await page.title()).toBe('driftcheck history');
      expect(seen).toEqual({ errors: [], outside: [] });
    });

    it('runs no script of a page it did not write: another HTML file in the folder is sandboxed', async () => {
      const { page, seen } = await open(`${server.url}evil.html`, 1280);
      expect(await page.locator('p').textContent()).toBe('a page someone put there');
      expect(await page.evaluate('window.__xss')).toBeUndefined();
      expect(seen.outside).toEqual([]);
    });

    it('fits a phone (375 px): each run a card, nothing cut off', async () => {
      const { page, seen } = await open(server.url, 375);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
      const card = await page.locator('ol.runs > li').last().boundingBox();
      expect(card!.width).toBeLessThanOrEqual(375);
      await page.screenshot({ path: join(SHOTS, 'open-index-375.png'), fullPage: true });
      expect(seen).toEqual({ errors: [], outside: [] });
    });

    it('reports/index.html, the static copy, works from file:// (a CI artifact, GitHub Pages)', async () => {
      const { page, seen } = await open(pathToFileURL(join(project.dir, 'reports/index.html')).href, 1280);
      expect(await page.locator('ol.runs > li').count()).toBe(4);
      await page.locator('ol.runs > li').first().locator('a', { hasText: 'report.html' }).click();
      await page.waitForFunction('document.documentElement.dataset.ready === "true"');
      expect(page.url()).toBe(pathToFileURL(join(runs.pass!, 'report.html')).href);
      expect(seen).toEqual({ errors: [], outside: [] });
    });
  },
);
