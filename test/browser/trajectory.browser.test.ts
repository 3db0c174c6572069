import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, skipBrowser } from '../helpers/browser.js';
import { renderHtml } from '../../src/report/html/index.js';
import type { Baseline } from '../../src/stored/baseline/types.js';
import type { StepRecord } from '../../src/stored/journal/records.js';
import type { Drift } from '../../src/record/drift-kinds.js';
import { makeCase, makeReport, regressedDrift } from '../report/fixture.js';

const HOSTILE_RESULT = '<img src=x onerror="window.__xss=1;alert(1)">';
const HOSTILE_USER = '</script><script>window.__xss=1;alert(2)</script> and a refund?';

/** One request of a loop as a sample keeps it. */
const step = (over: Partial<StepRecord> = {}): StepRecord => ({
  model: 'moonshotai/kimi-k2-thinking',
  provider: 'Together',
  finish_reason: 'tool_calls',
  usage: null,
  latency_ms: 20,
  attempts: 1,
  ...over,
});

const changed: Drift = {
  kind: 'trajectory_changed',
  severity: 'warn',
  baseline: ['lookup_order', 'check_policy'],
  current: ['lookup_order', 'lookup_order'],
  message: 'trajectory changed: lookup_order → lookup_order (baseline: lookup_order → check_policy)',
};

/** The baseline of suite `support`: its refund case answered after two calls. */
const baseline: Baseline = {
  schema_version: 1,
  suite: 'support',
  service: 'router',
  model: 'openai/gpt-4o-mini',
  source_run: 'r0',
  cases: {
    refund: {
      status: 'pass',
      requested_model: 'openai/gpt-4o-mini',
      model: 'openai/gpt-4o-mini',
      finish_reason: 'stop',
      usage: null,
      content: 'Returnable within 30 days.',
      error_kind: null,
      checks: [],
      trajectory: {
        steps: 3,
        calls: [
          { step: 1, tool: 'lookup_order', arguments: '{"order":"42"}', result: '{"sku":"K-2"}' },
          { step: 2, tool: 'check_policy', arguments: '{"sku":"K-2"}', result: '{"window":"30 days"}' },
        ],
      },
    },
  },
};

// A conversation's case reads as a transcript: each request with what served it and how it
// finished, the calls its answer made with the results given, each turn's user message and
// reply, and the final answer; beside it, when its trajectory changed, the baseline's. Every
// text in it (results, arguments, user turns, answers) stays text.
describe.skipIf(skipBrowser)('report.html: a conversation’s transcript', () => {
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

  async function open(html: string, id: string): Promise<{ page: Page; item: Locator; dialogs: string[] }> {
    const file = join(dir, `${id.replace('/', '-')}.html`);
    await writeFile(file, html);
    const page = await browser.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(pathToFileURL(file).href);
    await page.waitForFunction('document.documentElement.dataset.ready === "true"');
    const item = page.locator('details.case', { hasText: id });
    await item.locator('summary').click();
    await item.locator('section.part').first().waitFor();
    return { page, item, dialogs };
  }
  const texts = (l: Locator) => l.evaluateAll((els) => els.map((e) => e.textContent));

  it('shows each request and its calls with the results given, and the baseline beside a changed trajectory', async () => {
    const loop = makeCase({
      case: 'refund',
      status: 'fail',
      content: 'Order <b>42</b> is delivered.',
      checks: [{ type: 'contains', pass: false, message: 'expected content to contain "30 days"' }],
      drift: [regressedDrift(), changed],
      steps: [
        step({ latency_ms: 31 }),
        step({ latency_ms: 12 }),
        step({ finish_reason: 'stop', provider: 'Moonshot AI', latency_ms: 9 }),
      ],
      trajectory: {
        steps: 3,
        calls: [
          { step: 1, tool: 'lookup_order', arguments: '{"order":"42"}', result: '{"sku":"K-2"}' },
          { step: 2, tool: 'lookup_order', arguments: '{"order":"42"}', result: HOSTILE_RESULT },
        ],
      },
    });
    const html = renderHtml(makeReport([loop]), { baselines: new Map([['support', baseline]]) });
    const { page, item, dialogs } = await open(html, 'support/refund');
    const part = item.locator('section.part', { hasText: 'Conversation' });
    expect(await part.locator('h3').textContent()).toBe('Conversation (3 requests)');
    // Two columns: tonight's transcript and the baseline's trajectory.
    const [tonight, base] = [part.locator('.transcript').nth(0), part.locator('.transcript').nth(1)];
    expect(await part.locator('.transcript').count()).toBe(2);
    expect(await tonight.locator('h4').textContent()).toBe('tonight · 3 requests');
    expect(await base.locator('h4').textContent()).toBe('baseline · 3 requests');
    expect(await texts(tonight.locator('.step-head'))).toEqual([
      'step 1Together · moonshotai/kimi-k2-thinking · tool_calls · 31 ms',
      'step 2calls differTogether · moonshotai/kimi-k2-thinking · tool_calls · 12 ms',
      'step 3Moonshot AI · moonshotai/kimi-k2-thinking · stop · 9 ms',
    ]);
    // Each call (→) with the result driftcheck gave it (←); a hostile result is text.
    expect(await texts(tonight.locator('pre.io'))).toEqual([
      'lookup_order({"order":"42"})',
      '{"sku":"K-2"}',
      'lookup_order({"order":"42"})',
      HOSTILE_RESULT,
    ]);
    expect(await tonight.locator('.msg .role').last().textContent()).toBe('final answer');
    expect(await tonight.locator('.msg pre.text').last().textContent()).toBe('Order <b>42</b> is delivered.');
    // The baseline's requests, the one whose calls differ marked, and its answer.
    expect(await texts(base.locator('.step-head'))).toEqual(['step 1', 'step 2calls differ', 'step 3']);
    expect(await texts(base.locator('pre.io'))).toEqual([
      'lookup_order({"order":"42"})',
      '{"sku":"K-2"}',
      'check_policy({"sku":"K-2"})',
      '{"window":"30 days"}',
    ]);
    expect(await base.locator('.msg pre.text').textContent()).toBe('Returnable within 30 days.');
    // The loop at a glance among the response's details.
    const trajectory = item.locator('dl.meta dt', { hasText: /^trajectory$/ });
    expect(await trajectory.locator('xpath=following-sibling::dd[1]').textContent()).toBe(
      'lookup_order → lookup_order (3 steps)',
    );
    await page.waitForTimeout(100);
    expect(await item.locator('img, b:text("42")').count()).toBe(0);
    expect(await page.evaluate('window.__xss')).toBeUndefined();
    expect(dialogs).toEqual([]);
  });

  it('shows scripted turns with their user messages and replies, and names the turn and step an error stopped at', async () => {
    const turns = makeCase({
      case: 'two-turns',
      status: 'error',
      content: null,
      finish_reason: 'tool_calls',
      error: {
        kind: 'tool_result_missing',
        http_status: null,
        type: null,
        code: null,
        message: 'called escalate({}), which no tool_results rule answers',
        model: 'moonshotai/kimi-k2-thinking',
      },
      checks: [],
      drift: [],
      steps: [step(), step({ finish_reason: 'stop' }), step()],
      turns: [
        { user: null, content: 'Order 42 is delivered.', finish_reason: 'stop' },
        { user: HOSTILE_USER, content: null, finish_reason: 'tool_calls' },
      ],
      trajectory: {
        steps: 3,
        calls: [
          { step: 1, tool: 'lookup_order', arguments: '{"order":"42"}', result: '{"sku":"K-2"}' },
          { step: 3, tool: 'escalate', arguments: '{}', result: null },
        ],
      },
    });
    const { page, item, dialogs } = await open(renderHtml(makeReport([turns])), 'support/two-turns');
    // The case's line says where it stopped.
    expect(await item.locator('summary .reason').textContent()).toMatch(
      /^turn 2, step 3: tool_result_missing: called escalate/,
    );
    const part = item.locator('section.part', { hasText: 'Conversation' });
    expect(await part.locator('h3').textContent()).toBe('Conversation (3 requests, 2 turns)');
    const [first, second] = [part.locator('.turn').nth(0), part.locator('.turn').nth(1)];
    expect(await texts(first.locator('.role'))).toEqual(['turn 1 · user', 'reply']);
    expect(await first.locator('.msg p.muted').textContent()).toBe('the prompt above');
    expect(await texts(first.locator('.step-head b'))).toEqual(['step 1', 'step 2']);
    expect(await first.locator('.msg pre.text').textContent()).toBe('Order 42 is delivered.');
    expect(await texts(second.locator('.role'))).toEqual(['turn 2 · user']);
    expect(await second.locator('.msg pre.text').textContent()).toBe(HOSTILE_USER);
    expect(await texts(second.locator('.step-head b'))).toEqual(['step 3']);
    expect(await texts(second.locator('.io'))).toEqual([
      'escalate({})',
      'no result: no tool_results rule answers this call',
    ]);
    expect(await part.locator('.stopped').textContent()).toBe(
      'stopped at turn 2, step 3: tool_result_missing: called escalate({}), which no tool_results rule answers',
    );
    const at = item.locator('dl.meta dt', { hasText: /^error at$/ });
    expect(await at.locator('xpath=following-sibling::dd[1]').textContent()).toBe('turn 2, step 3');
    await page.waitForTimeout(100);
    expect(await page.evaluate('window.__xss')).toBeUndefined();
    expect(dialogs).toEqual([]);
  });
});
