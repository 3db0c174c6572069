import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, skipBrowser } from '../helpers/browser.js';
import { renderHtml } from '../../src/report/html/index.js';
import { makeCase, makeReport, regressedDrift } from '../report/fixture.js';

// Each recorded field declares its rows of a case's details (src/record/fields/, `detail`):
// the page shows them where the field places them, beside what served the answer, its
// usage or its outcome, marked as the field says.
describe.skipIf(skipBrowser)('report.html: the recorded fields in a case’s details', () => {
  let browser: Browser;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'driftcheck-recorded-'));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('shows each field’s rows in its place, and none for a field the service did not say', async () => {
    const served = makeCase({
      case: 'served',
      status: 'fail',
      provider: 'Groq',
      system_fingerprint: 'fp_0042',
      native_finish_reason: 'eos',
      refusal: 'I cannot help with that.',
      drift: [regressedDrift()],
    });
    const report = makeReport([
      // Two providers over its samples: the row is marked.
      { ...served, providers: ['Groq', 'DeepInfra'] },
      makeCase({ case: 'plain', status: 'fail', drift: [regressedDrift()] }),
    ]);
    const file = join(dir, 'report.html');
    await writeFile(file, renderHtml(report));
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(pathToFileURL(file).href);
    await page.waitForFunction('document.documentElement.dataset.ready === "true"');

    const rows = async (id: string) => {
      const item = page.locator('details.case', { hasText: id });
      await item.locator('summary').click();
      await item.locator('dl.meta').waitFor();
      const terms = await item.locator('dl.meta dt').allTextContents();
      const values = await item
        .locator('dl.meta dd')
        .evaluateAll((dds) => dds.map((d) => [d.textContent, d.className]));
      return terms.map((t, i) => [t, ...values[i]!]);
    };
    const withServed = await rows('support/served');
    expect(withServed.map(([term]) => term)).toEqual([
      'requested model',
      'concrete model',
      'provider',
      'system_fingerprint',
      'service',
      'samples',
      'finish_reason',
      'usage',
      'native finish_reason',
      'latency',
      'attempts',
      'refusal',
      'response id',
      'started',
    ]);
    expect(withServed.filter(([term]) => /provider|fingerprint|native|refusal/.test(term!))).toEqual([
      ['provider', 'Groq, DeepInfra', 'warn'],
      ['system_fingerprint', 'fp_0042', ''],
      ['native finish_reason', 'eos', ''],
      ['refusal', 'I cannot help with that.', 'bad'],
    ]);
    const plain = await rows('support/plain');
    expect(plain.map(([term]) => term)).not.toContain('provider');
    expect(plain.map(([term]) => term)).not.toContain('refusal');
    expect(errors).toEqual([]);
    await page.close();
  });
});
