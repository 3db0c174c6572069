import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openReady, skipBrowser, watchedPage } from '../helpers/browser.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { copyFromRepo, makeProject, REPO } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';
import type { Comparison } from '../../src/compare/types.js';

const HOSTILE = '<img src=x onerror=window.__xss=1>';

// compare.html opens a conversation's case with each candidate's trajectory under its
// answer, side by side with the baseline's: the demo's agent suite on three of its model's
// providers, one of which loops where the baseline checked the policy. A tool result that
// holds markup stays text.
describe.skipIf(skipBrowser)(
  'compare.html: the candidates’ trajectories side by side (CLI → Chromium)',
  () => {
    let project: Awaited<ReturnType<typeof makeProject>>;
    let browser: Browser;
    let page: Page;
    let comparison: Comparison;
    const errors: string[] = [];

    beforeAll(async () => {
      project = await makeProject();
      await copyFromRepo(project.dir, 'suites/demo/agent.yaml', 'baselines/agent-demo.json');
      // The kettle's order lookup answers with markup in it (the baseline's kept the plain one).
      const suite = join(project.dir, 'suites/demo/agent.yaml');
      const shipped = await readFile(suite, 'utf8');
      const hostile = shipped.replace(
        'result: { status: delivered, sku: KETTLE-2 }',
        `result: { status: delivered, sku: KETTLE-2, note: "${HOSTILE}" }`,
      );
      expect(hostile).not.toBe(shipped);
      await writeFile(suite, hostile);
      const run = await runMain(
        [
          'run',
          '--sim',
          '--providers',
          'moonshot-ai,together',
          'suites/demo/agent.yaml',
          '--concurrency',
          '1',
        ],
        { cwd: project.dir, env: { DRIFTCHECK_SIM_SEED: '7' } },
      );
      expect(run.code, run.stderr).toBe(1);
      const file = /compare: .*?(\S+compare\.json)/.exec(run.stderr)![1]!;
      comparison = JSON.parse(await readFile(join(project.dir, file), 'utf8'));
      browser = await launchChromium();
      page = await watchedPage(browser, errors, { dialogs: true });
      const html = join(project.dir, file.replace(/compare\.json$/, 'compare.html'));
      await openReady(
        page,
        `${pathToFileURL(html).href}#case=${encodeURIComponent('agent-demo/return-kettle')}`,
      );
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
      await project?.cleanup();
    });

    const texts = (l: Locator) => l.evaluateAll((els) => els.map((e) => e.textContent));

    it('keeps each trajectory in compare.json: the candidates’ and the baseline’s', async () => {
      const schema = JSON.parse(await readFile(join(REPO, 'schemas/compare.schema.json'), 'utf8'));
      const validate = new Ajv2020({ allErrors: true, strict: true }).compile(schema);
      expect(validate(comparison), JSON.stringify(validate.errors)).toBe(true);
      const row = comparison.cases.find((r) => r.id === 'agent-demo/return-kettle')!;
      expect(row.reference.trajectory!.calls.map((c) => c.tool)).toEqual(['lookup_order', 'check_policy']);
      expect(row.cells.map((c) => c.trajectory!.calls.map((k) => k.tool))).toEqual([
        ['lookup_order', 'check_policy'],
        ['lookup_order', 'lookup_order', 'lookup_order', 'lookup_order'],
      ]);
      // A case of a single request would have none; every case of this suite is a conversation.
      expect(comparison.cases.every((r) => r.cells.every((c) => c.trajectory))).toBe(true);
    });

    it('draws them under the answers, the requests that called other tools than the baseline marked, markup as text', async () => {
      const panes = page.locator('#detail .pane');
      await expect.poll(() => panes.count()).toBe(3);
      const heads = await texts(panes.locator('.transcript h4'));
      expect(heads).toEqual([
        'trajectory · 3 requests',
        'trajectory · 3 requests',
        'trajectory · 4 requests',
      ]);
      const [baseline, moonshot, together] = [panes.nth(0), panes.nth(1), panes.nth(2)];
      const tools = (pane: Locator) => texts(pane.locator('.step pre.io b'));
      expect(await tools(baseline)).toEqual(['lookup_order', 'check_policy']);
      expect(await tools(moonshot)).toEqual(['lookup_order', 'check_policy']);
      expect(await tools(together)).toEqual(['lookup_order', 'lookup_order', 'lookup_order', 'lookup_order']);
      expect(await moonshot.locator('.step.changed').count()).toBe(0);
      expect(await texts(together.locator('.step.changed .step-head b'))).toEqual([
        'step 2',
        'step 3',
        'step 4',
      ]);
      // Tonight's lookup answered with markup: shown as the text it is, under both candidates.
      const results = await texts(moonshot.locator('.step pre.io'));
      expect(results[1]).toContain(HOSTILE);
      expect(await page.locator('#detail img').count()).toBe(0);
      expect(await page.evaluate('window.__xss')).toBeUndefined();
      expect(errors).toEqual([]);
    });
  },
);
