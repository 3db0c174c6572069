import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openReady, recordErrors, skipBrowser, watchedPage } from '../helpers/browser.js';
import { makeProject, readReport, runDirFrom } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';
import type { Baseline } from '../../src/stored/baseline/types.js';
import type { Report } from '../../src/stored/report/types.js';
import type { CaseError } from '../../src/core/answer.js';
import type { CaseStream } from '../../src/record/fields/stream.js';
import { renderHtml } from '../../src/report/html/index.js';
import { makeCase, makeReport, regressedDrift } from '../report/fixture.js';
import { sampleResult } from '../helpers/results.js';

const ENV = { DRIFTCHECK_SIM_SEED: '7' };
const HOSTILE = '<img src=x onerror="window.__xss=1;alert(1)">';

// The router is told to stall for 2 s; the client gives up after 0.8 s of silence (a first
// token three times later, at least 0.5 s, still comes in time).
const CONFIG = `services:
  router:
    kind: router
    base_url: https://openrouter.ai/api/v1
    api_key_env: OPENROUTER_API_KEY
    idle_timeout_s: 0.8
    retries: 0
`;

/**
 * A streamed suite, and the sim lines of tonight's faults: `slow` gets its first token
 * three times later, `cut` breaks off with markup in what came, `err` gets an error event
 * after some content, `stall` goes silent; `plain` is not streamed.
 */
const suite = (tonight: boolean) => {
  const fault = (line: string) => (tonight ? `\n    sim: ${line}` : '');
  return `suite: chat
service: router
model: openai/gpt-4o-mini
params: { max_tokens: 256, temperature: 0, stream: true }
cases:
  - id: steady
    prompt: What are your opening hours?
    repeat: 5
  - id: slow
    prompt: What is the refund window?
    repeat: 5${fault('{ stream_fault: slow_first_token }')}
  - id: cut
    prompt: Do you ship to Canada?${fault(`{ reply: ${JSON.stringify(`${HOSTILE} We ship to Canada within ten working days of the order`)}, stream_fault: cut }`)}
  - id: err
    prompt: How long is the warranty?${fault('{ stream_fault: error_after_content }')}
  - id: stall
    prompt: Can I pay by invoice?${fault('{ stream_fault: stall, stall_ms: 2000 }')}
  - id: plain
    prompt: "Say exactly: hello"
    params: { stream: false }
`;
};

// report.html of a streamed suite's second night, made through the command: a streamed case
// says so in its row and shows its time to first token and tokens per second beside its
// baseline's (marked where ttft_changed says it is slower), a case that is not streamed shows
// neither, and a stream that broke off, stalled or erred after content shows what had come,
// as text.
describe.skipIf(skipBrowser)('report.html: streamed answers (CLI → Chromium)', () => {
  let project: Awaited<ReturnType<typeof makeProject>>;
  let browser: Browser;
  let page: Page;
  let report: Report;
  let baseline: Baseline;
  const errors: string[] = [];

  beforeAll(async () => {
    project = await makeProject({ 'driftcheck.config.yaml': CONFIG, 'suites/chat.yaml': suite(false) });
    const first = await runMain(['run', '--sim', 'suites', '--update-baselines'], {
      cwd: project.dir,
      env: ENV,
    });
    expect(first.code, first.stderr).toBe(0);
    baseline = JSON.parse(await readFile(join(project.dir, 'baselines/chat.json'), 'utf8')) as Baseline;
    await writeFile(join(project.dir, 'suites/chat.yaml'), suite(true));
    const tonight = await runMain(['run', '--sim', 'suites'], { cwd: project.dir, env: ENV });
    expect(tonight.code, tonight.stderr).toBe(1);
    const dir = runDirFrom(tonight, project.dir);
    report = await readReport(dir);
    browser = await launchChromium();
    page = await watchedPage(browser, errors, { dialogs: true });
    await openReady(page, join(dir, 'report.html'));
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await project?.cleanup();
  });

  const item = (id: string) =>
    page.locator('details.case', { has: page.locator('.id', { hasText: new RegExp(`^chat/${id}$`) }) });
  const entry = (id: string) => report.cases.find((c) => c.case === id)!;
  /** A case's details opened: its Response rows as [term, text, class]. */
  async function open(id: string): Promise<{ box: Locator; rows: string[][] }> {
    const box = item(id);
    if ((await box.getAttribute('open')) === null) await box.locator('summary').click();
    await box.locator('.detail').waitFor();
    const rows = await box
      .locator('dl.meta')
      .first()
      .evaluate((dl) =>
        [...dl.querySelectorAll('dt')].map((dt) => {
          const dd = dt.nextElementSibling!;
          return [dt.textContent!, dd.textContent!, dd.className];
        }),
      );
    return { box, rows };
  }
  const row = (rows: string[][], term: string) => rows.find((r) => r[0] === term);

  it('marks each streamed case in its row, and not the one that was not streamed', async () => {
    for (const id of ['steady', 'slow', 'cut', 'err', 'stall'])
      expect(await item(id).locator('summary .row-label').allTextContents(), id).toEqual(['streamed']);
    expect(await item('plain').locator('summary .row-label').count()).toBe(0);
    expect(entry('plain').streaming ?? null).toBeNull();
  });

  it("shows a slower first token tonight beside the baseline's, marked", async () => {
    const now = entry('slow').streaming!;
    // The baseline stores the case's `streaming` under `stream` (typed as a sample's value: see RecordedBaseline).
    const then = baseline.cases.slow!.stream as unknown as CaseStream;
    expect(entry('slow').drift.map((d) => d.kind)).toContain('ttft_changed');
    const { rows } = await open('slow');
    const ttft = row(rows, 'time to first token')!;
    expect(ttft[1]).toBe(
      `p50 ${now.ttft_ms!.p50} ms · p95 ${now.ttft_ms!.p95} ms (5 samples) · baseline p50 ${then.ttft_ms!.p50} ms · p95 ${then.ttft_ms!.p95} ms (5 samples)`,
    );
    expect(ttft[2]).toBe('warn');
    expect(now.ttft_ms!.p50).toBeGreaterThan(then.ttft_ms!.p50);
    // A sample whose tokens all came in one instant has no throughput (none at all: no row).
    const [a, b] = [now.tokens_per_s, then.tokens_per_s!];
    const n = (k: number) => `${k} sample${k === 1 ? '' : 's'}`;
    expect(row(rows, 'tokens per second')?.[1]).toBe(
      a
        ? `p50 ${a.p50} tokens/s · p95 ${a.p95} tokens/s (${n(a.n)}) · baseline p50 ${b.p50} tokens/s · p95 ${b.p95} tokens/s (${n(b.n)})`
        : undefined,
    );
    // Its drift names the kind, as the console and summary.md name it.
    expect(await item('slow').locator('.drift li b').allTextContents()).toContain('ttft_changed');
  });

  it('shows neither timing for the case that was not streamed', async () => {
    const { rows } = await open('plain');
    expect(row(rows, 'time to first token')).toBeUndefined();
    expect(row(rows, 'tokens per second')).toBeUndefined();
  });

  it.each([
    ['cut', 'stream_interrupted'],
    ['err', 'body_error'],
    ['stall', 'timeout'],
  ])('shows what came before %s’s %s as a partial answer, as text', async (id, kind) => {
    const c = entry(id);
    expect(c.error?.kind).toBe(kind);
    expect(c.content).toBeTruthy();
    const { box } = await open(id);
    const answer = box.locator('section.part', { has: page.locator('h3', { hasText: /^Answer/ }) });
    expect(await answer.locator('h3').textContent()).toBe('Answer (partial)');
    expect(await answer.locator('p.partial').textContent()).toContain(`(${kind})`);
    // Against the baseline's whole answer it reads as a diff; either way every word that came is there.
    const shown = (await answer.locator('.diff, pre.text').first().textContent())!;
    for (const word of c.content!.split(/\s+/).filter(Boolean).slice(0, 4)) expect(shown).toContain(word);
  });

  it('keeps markup in a partial answer inert', async () => {
    expect(entry('cut').content).toContain(HOSTILE);
    const { box } = await open('cut');
    expect(await box.locator('.detail img').count()).toBe(0);
    expect(await box.locator('.detail').textContent()).toContain(HOSTILE);
    expect(await page.evaluate('window.__xss')).toBeUndefined();
    expect(errors).toEqual([]);
  });
});

const STREAM = { first_token_ms: 240, last_token_ms: 640, chunks: 12, tokens_per_s: 50 };

// What the fold makes rarely on a simulator's timings, from fixtures: a brief streamed case
// (it passed every sample, nothing changed) keeps its median time to first token beside its
// counts; a repeated case whose later sample broke off shows that sample's partial answer.
describe.skipIf(skipBrowser)('report.html: a brief streamed case, a later sample broken off', () => {
  let browser: Browser;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'driftcheck-stream-'));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('shows them', async () => {
    const brief = makeCase({ case: 'brief', stream: STREAM });
    const plain = makeCase({ case: 'plain' });
    const cut: CaseError = {
      kind: 'stream_interrupted',
      http_status: 200,
      type: null,
      code: null,
      message: 'the stream broke off after 2 chunks, 18 characters, without a finish_reason or [DONE]',
      model: 'openai/gpt-4o-mini',
    };
    const later = sampleResult({
      suite: 'support',
      case: 'repeated',
      repeat: 2,
      status: 'error',
      error: cut,
      content: `${HOSTILE} Refunds are`,
      stream: STREAM,
    });
    const repeated = {
      ...makeCase({ case: 'repeated', stream: STREAM, drift: [regressedDrift('errors')] }),
      status: 'error' as const,
      error: cut,
      first_failure: later,
    };
    expect([brief.detail, plain.detail, repeated.detail]).toEqual(['brief', 'brief', 'full']);
    const file = join(dir, 'report.html');
    await writeFile(file, renderHtml(makeReport([brief, plain, repeated])));
    const errors: string[] = [];
    const page = recordErrors(await browser.newPage(), errors, { dialogs: true });
    await openReady(page, file);
    const facts = async (id: string) => {
      const box = page.locator('details.case', { hasText: id });
      await box.locator('summary').click();
      await box.locator('.detail').waitFor();
      const terms = await box.locator('dt').allTextContents();
      const values = await box.locator('dd').allTextContents();
      return new Map(terms.map((t, i) => [t, values[i]]));
    };
    expect(
      await page
        .locator('details.case', { hasText: 'support/brief' })
        .locator('.row-label')
        .allTextContents(),
    ).toEqual(['streamed']);
    expect((await facts('support/brief')).get('time to first token')).toBe('240 ms');
    expect((await facts('support/plain')).has('time to first token')).toBe(false);
    const box = page.locator('details.case', { hasText: 'support/repeated' });
    await box.locator('summary').click();
    await box.locator('.detail').waitFor();
    // The first sample answered whole; the third broke off: its partial answer, as text.
    expect(await box.locator('h3').allTextContents()).toContain('Answer');
    const part = box.locator('section.part', {
      has: page.locator('h3', { hasText: 'Partial answer of sample 3' }),
    });
    expect(await part.locator('pre.text').textContent()).toBe(`${HOSTILE} Refunds are`);
    expect(await part.locator('p').textContent()).toContain('(stream_interrupted)');
    expect(await box.locator('img').count()).toBe(0);
    expect(await page.evaluate('window.__xss')).toBeUndefined();
    expect(errors).toEqual([]);
  });
});
