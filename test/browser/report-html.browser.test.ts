import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, skipBrowser } from '../helpers/browser.js';
import { renderHtml } from '../../src/report/html/index.js';
import type { Report } from '../../src/stored/report/types.js';
import {
  contentDrift,
  makeCase,
  makeReport,
  manyCases,
  regressedDrift,
  sampleCases,
} from '../report/fixture.js';

/**
 * Runs code in the page, given as source text: this project compiles without the DOM
 * library, and Playwright evaluates a string as an expression. `T` is what it returns.
 */
async function inPage<T>(page: Page, source: string): Promise<T> {
  return (await page.evaluate(source)) as T;
}

interface Opened {
  page: Page;
  /** Everything the page fetched besides its own file: must stay empty (self-contained). */
  requests: string[];
  /** Uncaught errors and console errors (a CSP violation shows up here). */
  errors: string[];
  dialogs: string[];
}

describe.skipIf(skipBrowser)('report.html in headless Chromium', () => {
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'driftcheck-html-'));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function open(
    report: Report,
    name: string,
    viewport = { width: 1280, height: 900 },
    hash = '',
  ): Promise<Opened & { file: string; ms: number }> {
    const file = join(dir, `${name}.html`);
    await writeFile(file, renderHtml(report));
    const url = pathToFileURL(file).href;
    const page = await browser.newPage({ viewport });
    const opened: Opened = { page, requests: [], errors: [], dialogs: [] };
    page.on('request', (r) => {
      if (r.url() !== url && !r.url().startsWith('data:')) opened.requests.push(r.url());
    });
    page.on('pageerror', (e) => opened.errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') opened.errors.push(m.text());
    });
    page.on('dialog', (d) => {
      opened.dialogs.push(d.message());
      void d.dismiss();
    });
    const started = performance.now();
    await page.goto(url + hash);
    await page.waitForFunction('document.documentElement.dataset.ready === "true"');
    return { ...opened, file, ms: performance.now() - started };
  }

  const rowIds = (page: Page) => page.locator('details.case .id').allTextContents();
  const clean = (o: Opened) => {
    expect(o.errors).toEqual([]);
    expect(o.requests).toEqual([]);
  };

  it('filters by status and drift kind, and searches by id', async () => {
    const o = await open(makeReport(sampleCases()), 'filters');
    const { page } = o;
    expect(await rowIds(page)).toEqual([
      'support/refund-window',
      'support/warranty',
      'direct/release-notes',
      'support/tone',
      'support/paused',
      'support/greeting',
    ]);
    expect(await page.locator('details.case >> nth=0 >> .badge').textContent()).toBe('regressed');

    const view = async (name: string) => {
      await page.click(`button.view[data-view="${name}"]`);
      return rowIds(page);
    };
    expect(await view('regressed')).toEqual(['support/refund-window', 'support/warranty']);
    expect(await view('fail')).toEqual(['support/refund-window', 'direct/release-notes']);
    expect(await view('error')).toEqual(['support/warranty']);
    expect(await view('not_run')).toEqual(['support/paused']);
    expect(await page.getAttribute('button.view[data-view="not_run"]', 'aria-pressed')).toBe('true');
    expect(await view('all')).toHaveLength(6);

    await page.selectOption('#kind', 'usage_changed');
    expect(await rowIds(page)).toEqual(['support/tone']);
    await page.selectOption('#kind', '');

    await page.fill('#q', 'WARR');
    await expect.poll(() => rowIds(page)).toEqual(['support/warranty']);
    await page.fill('#q', 'no-such-case');
    await expect.poll(() => page.textContent('#count')).toBe('No case matches.');
    await page.fill('#q', 'support/');
    await page.click('button.view[data-view="fail"]');
    await expect.poll(() => rowIds(page)).toEqual(['support/refund-window']);
    clean(o);
    await page.close();
  });

  it('shows prompt, expectations, metadata and a word diff against the baseline when a case opens', async () => {
    const o = await open(makeReport(sampleCases()), 'detail');
    const { page } = o;
    const refund = page.locator('details.case', { hasText: 'support/refund-window' });
    expect(await refund.locator('.detail').count()).toBe(0); // built lazily, on open
    await refund.locator('summary').click();
    await expect.poll(() => refund.locator('.msg pre').textContent()).toBe('What is the refund window?');
    expect(await refund.locator('.checks li.bad').textContent()).toContain(
      '✗contains expected content to contain "30 days"',
    );
    expect(await refund.locator('.drift li').allTextContents()).toEqual([
      'failregressed regressed: passed in the baseline, now fails 1 check (contains)',
      'warncontent_changed content changed (similarity 0.55)',
    ]);
    // Side by side: the baseline column strikes "30", the current one adds "14" and the receipt.
    expect(await refund.locator('.split .side >> nth=0 >> del').allTextContents()).toEqual(['30']);
    expect(await refund.locator('.split .side >> nth=1 >> ins').allTextContents()).toEqual([
      '14',
      ', with the receipt',
    ]);
    expect(await refund.locator('.split .side >> nth=1 >> pre').textContent()).toBe(
      'Refunds are accepted within 14 days of purchase, with the receipt.',
    );
    await refund.locator('button.mode', { hasText: 'inline' }).click();
    expect(await refund.locator('.diff > pre').textContent()).toBe(
      'Refunds are accepted within 3014 days of purchase, with the receipt.',
    );
    expect(await refund.locator('.diff del').allTextContents()).toEqual(['30']);

    const warranty = page.locator('details.case', { hasText: 'support/warranty' });
    await warranty.locator('summary').click();
    const meta = await warranty.locator('dl.meta').innerText();
    expect(meta).toMatch(/error kind\s+empty_choices/);
    expect(meta).toMatch(/HTTP status\s+200/);
    expect(meta).toMatch(/requested model\s+openai\/gpt-4o-mini/);
    expect(meta).toMatch(/finish_reason\s+none/);

    const notes = page.locator('details.case', { hasText: 'direct/release-notes' });
    await notes.locator('summary').click();
    // allTextContents() does not wait: let the opened case render first (slow under load).
    await notes.locator('dl.meta dd.warn').first().waitFor();
    expect(await notes.locator('dl.meta dd.warn').allTextContents()).toEqual([
      'kimi-k2-0905-preview-2',
      'length',
    ]);
    clean(o);
    await page.close();
  });

  it('opens a failing case with its answer and a passing unchanged one as its row of counts', async () => {
    const system = 'You answer for ACME support, briefly.';
    const withSystem = (c: ReturnType<typeof makeCase>) => ({
      ...c,
      messages: [{ role: 'system' as const, content: system }, ...c.messages],
    });
    const failing = withSystem(
      makeCase({
        case: 'refund',
        status: 'fail',
        content: 'No refunds, ever.',
        checks: [{ type: 'contains', pass: false, message: 'expected content to contain "30 days"' }],
      }),
    );
    const passing = Array.from({ length: 40 }, (_, i) =>
      withSystem(makeCase({ case: `ok-${i}`, content: `passing answer ${i}` })),
    );
    const report = makeReport([...passing, failing]);
    report.suites = report.suites.map((s) => ({ ...s, system }));
    const o = await open(report, 'brief');
    const { page } = o;
    expect(await page.locator('#brief-note').textContent()).toContain(
      '40 of 41 cases passed every sample with nothing changed',
    );
    // The failing case is listed first and opens in full: its prompt (the suite's system
    // prompt in front), its failed check and its answer.
    expect((await rowIds(page))[0]).toBe('support/refund');
    const refund = page.locator('details.case', { hasText: 'support/refund' });
    await refund.locator('summary').click();
    await expect
      .poll(() => refund.locator('.msg pre').allTextContents())
      .toEqual([system, 'What is the refund window?']);
    expect(await refund.locator('.checks li.bad').textContent()).toContain('contains');
    expect(await refund.locator('.detail pre.text').last().textContent()).toBe('No refunds, ever.');
    // A passing case is a row of counts that says where the rest is.
    const ok = page.locator('details.case', { hasText: 'support/ok-7' });
    expect(await ok.locator('.badge').textContent()).toBe('pass');
    await ok.locator('summary').click();
    await expect
      .poll(() => ok.locator('.detail .note').textContent())
      .toContain('Its prompt, answer and checks are in report.json');
    expect(await ok.locator('dl.meta').innerText()).toMatch(/samples\s+1 of 1 passed/);
    expect(await ok.locator('.msg').count()).toBe(0);
    expect(await page.content()).not.toContain('passing answer 7');
    await page.click('button.view[data-view="pass"]');
    expect(await rowIds(page)).toHaveLength(40);
    clean(o);
    await page.close();
  });

  it('opens the case a deep link (#suite/case) names, on load and when the hash changes', async () => {
    const o = await open(makeReport(sampleCases()), 'deep-link', undefined, '#support/warranty');
    const { page } = o;
    expect(await rowIds(page)).toEqual(['support/warranty']);
    expect(await page.inputValue('#q')).toBe('support/warranty');
    const warranty = page.locator('details.case', { hasText: 'support/warranty' });
    expect(await warranty.getAttribute('open')).not.toBeNull();
    await expect.poll(() => warranty.locator('dl.meta').innerText()).toMatch(/error kind\s+empty_choices/);
    await inPage(page, "location.hash = 'direct/release-notes'");
    await expect.poll(() => rowIds(page)).toEqual(['direct/release-notes']);
    expect(
      await page.locator('details.case', { hasText: 'direct/release-notes' }).getAttribute('open'),
    ).not.toBeNull();
    // A link to no case of this report leaves the list as it was.
    await inPage(page, "location.hash = 'support/no-such-case'");
    await new Promise((r) => setTimeout(r, 50));
    expect(await rowIds(page)).toEqual(['direct/release-notes']);
    clean(o);
    await page.close();
  });

  it('fits a 375 px phone screen without sideways scrolling', async () => {
    const o = await open(makeReport(sampleCases()), 'phone', { width: 375, height: 812 });
    const first = o.page.locator('details.case').first();
    await first.locator('summary').click();
    // Narrow screens start with the inline diff; side by side stacks its two columns.
    expect(await first.locator('button.mode[aria-pressed="true"]').textContent()).toBe('inline');
    await first.locator('button.mode', { hasText: 'side by side' }).click();
    const width = await inPage<number>(o.page, 'document.documentElement.scrollWidth');
    expect(width).toBeLessThanOrEqual(375);
    const columns =
      "getComputedStyle(document.querySelector('.split')).gridTemplateColumns.split(' ').length";
    expect(await inPage<number>(o.page, columns)).toBe(1);
    clean(o);
    await o.page.close();
  });

  it('stays responsive with 5,000 cases (prints size and time to interactive)', async () => {
    const o = await open(makeReport(manyCases(5_000)), 'large');
    const { page } = o;
    const bytes = (await stat(o.file)).size;
    const nav = await inPage<{ domInteractive: number; start: number; ready: number }>(
      page,
      `(() => {
        const at = (name) => performance.getEntriesByName(name)[0].startTime;
        const n = performance.getEntriesByType('navigation')[0];
        return { domInteractive: n.domInteractive, start: at('driftcheck:start'), ready: at('driftcheck:ready') };
      })()`,
    );
    expect(await page.locator('details.case').count()).toBe(100); // lazily: one page of rows, not 5,000
    expect(await page.textContent('#count')).toBe('Showing 100 of 5000 cases, regressions first.');

    let t = performance.now();
    await page.fill('#q', 'case-04993');
    await expect.poll(() => rowIds(page)).toEqual(['suite-3/case-04993']);
    const searchMs = performance.now() - t;

    t = performance.now();
    const row = page.locator('details.case').first();
    await row.locator('summary').click();
    await row.locator('.diff').waitFor();
    const diffMs = performance.now() - t;
    expect(await row.locator('del').count()).toBeGreaterThan(0);

    await page.fill('#q', '');
    await expect.poll(() => page.locator('details.case').count()).toBe(100);
    await page.click('#more');
    await expect.poll(() => page.locator('details.case').count()).toBeGreaterThanOrEqual(200);

    console.log(
      `5,000-case report.html: ${(bytes / 1024 / 1024).toFixed(2)} MiB; ` +
        `time to interactive ${nav.ready.toFixed(0)} ms after navigation start ` +
        `(of which the page script ${(nav.ready - nav.start).toFixed(0)} ms: JSON.parse, sort, first 100 rows; parser done at ${nav.domInteractive.toFixed(0)} ms; ` +
        `goto → ready ${o.ms.toFixed(0)} ms wall clock from the test); search ${searchMs.toFixed(0)} ms (120 ms debounce included); open + diff ${diffMs.toFixed(0)} ms`,
    );
    clean(o);
    await page.close();
  });

  it('quotes a long answer and many tool calls in part, saying how much it left out', async () => {
    const calls = Array.from({ length: 150 }, (_, i) => ({
      id: `call_${i}`,
      name: 'get_weather',
      arguments: `{"city":${i}}`,
      parsed: { city: i },
      valid: false,
      invalid: 'schema_mismatch' as const,
      problem: '/city must be string',
    }));
    const flood = {
      ...makeCase({ case: 'flood', status: 'fail', content: 'y'.repeat(100_000) }),
      tool_use: {
        answered: 1,
        triggered: 1,
        valid: 0,
        trigger_rate: 1,
        valid_rate: 0,
        first: calls,
        distinct: [],
        other_calls: 0,
      },
    };
    const o = await open(makeReport([flood]), 'quoted');
    const { page } = o;
    const row = page.locator('details.case', { hasText: 'support/flood' });
    await row.locator('summary').click();
    await expect.poll(() => row.locator('.calls .msg').count()).toBe(100);
    expect(await row.locator('.calls .note').textContent()).toBe(
      'and 50 more calls, not shown here: report.json and results.jsonl hold them all',
    );
    const answer = await row.locator('pre.text', { hasText: 'yyyy' }).first().textContent();
    expect(answer).toMatch(/^y+… \(\+\d+ characters\)$/);
    expect(answer).toHaveLength(64 * 1024);
    expect(await row.locator('p.note', { hasText: 'Texts in this case are shortened' }).count()).toBe(1);
    clean(o);
    await page.close();
  });

  it('runs nothing from hostile model output', async () => {
    const payloads = [
      '<script>window.__xss = 1; alert("script")</script>',
      '<img src=x onerror="window.__xss = 1; alert(\'img\')">',
      '<a href="javascript:window.__xss=1;alert(1)">click me</a> [md](javascript:alert(1))',
      '</script><script>window.__xss = 1; alert("breakout")</script>',
      '<!-- <script> --> <svg onload="window.__xss=1"> \u2028\u2029 <style>body{display:none}</style>',
    ];
    const all = payloads.join('\n');
    const cases = payloads.map((p, i) =>
      makeCase({
        case: `xss-${i}${p}`,
        suite: i === 0 ? `<b>suite</b>${p}` : 'support',
        model: p,
        status: 'fail',
        content: `${p} now`,
        messages: [{ role: 'user', content: p }],
        checks: [{ type: 'contains', pass: false, message: p }],
        error: null,
        drift: [regressedDrift(p), contentDrift(`${p} before`, `${p} now`, 0.3)],
      }),
    );
    cases.push(
      makeCase({
        case: 'err',
        status: 'error',
        content: null,
        error: { kind: 'body_error', http_status: 200, type: all, code: all, message: all, model: all },
        attempt_errors: [
          { kind: 'rate_limited', http_status: 429, type: null, code: null, message: all, model: null },
        ],
      }),
    );
    const report = makeReport(cases);
    report.run.id = payloads[0]!;
    report.run.command = ['driftcheck', payloads[3]!];
    const o = await open(report, 'xss');
    const { page } = o;
    for (const summary of await page.locator('details.case summary').all()) await summary.click();
    for (const button of await page.locator('button.mode').all()) await button.click();
    await page.waitForTimeout(200); // let any injected onerror/onload fire, if one had been injected

    expect(o.dialogs).toEqual([]);
    expect(await inPage<unknown>(page, 'window.__xss')).toBeUndefined();
    expect(await page.locator('img, svg, a, iframe, object, embed, style:not(head style)').count()).toBe(0);
    expect(await page.locator('script').count()).toBe(2);
    expect(await page.locator('[onerror], [onload]').count()).toBe(0);
    expect(await page.locator('body').isVisible()).toBe(true);
    // The text is shown, literally.
    expect(await page.locator('details.case', { hasText: 'xss-3' }).locator('.msg pre').textContent()).toBe(
      payloads[3],
    );
    expect(
      await page.locator('details.case', { hasText: 'support/err' }).locator('dl.meta').innerText(),
    ).toContain('<script>window.__xss = 1; alert("script")</script>');
    // And the CSP is live: the page could not turn a string into markup even if it tried.
    expect(
      await inPage<string>(
        page,
        `(() => { try { document.body.insertAdjacentHTML('beforeend', '<b>x</b>'); return 'inserted'; } catch (e) { return e.name; } })()`,
      ),
    ).toBe('TypeError');
    expect(o.errors.filter((e) => !e.includes('TrustedHTML'))).toEqual([]);
    expect(o.requests).toEqual([]);
    await page.close();
  });
});
