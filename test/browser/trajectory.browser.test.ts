import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, skipBrowser } from '../helpers/browser.js';
import { renderHtml } from '../../src/report/html/index.js';
import { makeCase, makeReport, regressedDrift } from '../report/fixture.js';

// A tool loop's case shows its trajectory among its details: the sequence and its steps,
// then each call with its arguments and the result driftcheck gave it; a call no rule
// answered is marked, and hostile text in a result stays text.
describe.skipIf(skipBrowser)('report.html: a tool loop’s trajectory', () => {
  let browser: Browser;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'driftcheck-trajectory-'));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('lists each call with its result, marks the unanswered one, and runs nothing from a result', async () => {
    const loop = makeCase({
      case: 'refund',
      status: 'error',
      drift: [regressedDrift()],
      trajectory: {
        steps: 3,
        calls: [
          { step: 1, tool: 'lookup_order', arguments: '{"order":"42"}', result: '{"status":"shipped"}' },
          {
            step: 2,
            tool: 'check_policy',
            arguments: '{"sku":"A-1"}',
            result: '<img src=x onerror=alert(1)>',
          },
          { step: 3, tool: 'escalate', arguments: '{}', result: null },
        ],
      },
    });
    const file = join(dir, 'report.html');
    await writeFile(file, renderHtml(makeReport([loop])));
    const page = await browser.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(pathToFileURL(file).href);
    await page.waitForFunction('document.documentElement.dataset.ready === "true"');
    const item = page.locator('details.case', { hasText: 'support/refund' });
    await item.locator('summary').click();
    await item.locator('dl.meta').waitFor();
    const terms = await item.locator('dl.meta dt').allTextContents();
    const values = await item
      .locator('dl.meta dd')
      .evaluateAll((dds) => dds.map((d) => [d.textContent, d.className]));
    const rows = Object.fromEntries(terms.map((t, i) => [t, values[i]!]));
    expect(rows.trajectory![0]).toBe('lookup_order → check_policy → escalate (3 steps)');
    expect(rows['call 1 · step 1']![0]).toBe('lookup_order({"order":"42"}) → {"status":"shipped"}');
    expect(rows['call 2 · step 2']![0]).toBe('check_policy({"sku":"A-1"}) → <img src=x onerror=alert(1)>');
    expect(rows['call 3 · step 3']).toEqual([
      'escalate({}) → no result: no rule answers it',
      expect.stringContaining('bad'),
    ]);
    expect(await item.locator('img').count()).toBe(0);
    expect(dialogs).toEqual([]);
  });
});
