import { execFile } from 'node:child_process';
import { appendFile, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encodeRun } from '../../../src/stored/history/encode.js';
import { readHistory } from '../../../src/stored/history/read.js';
import { appendBaselineAccepted, appendRun, monthFile } from '../../../src/stored/history/store.js';
import { makeCase, makeRun } from '../../history/fixture.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'driftcheck-history-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('history store', () => {
  it('appends runs to month files and reads them back whole, in time order', async () => {
    const a = makeRun(29); // 2026-11-30
    const b = makeRun(30); // 2026-12-01
    const cases = [
      makeCase('refund-window'),
      makeCase('warranty', {
        status: 'error',
        passes: 0,
        error_kinds: ['timeout'],
        drift_kinds: ['new_error'],
        model: 'acme/chat-2',
        provider: null,
        tokens: null,
        cost: null,
        latency_p50_ms: null,
        latency_p95_ms: null,
      }),
    ];
    // Appended out of order on purpose: readers sort by start time.
    await appendRun(dir, { ...b, git: { commit: 'abc123', branch: 'main' } }, cases);
    await appendRun(dir, a, cases);
    expect((await readdir(dir)).sort()).toEqual(['2026-11.jsonl', '2026-12.jsonl']);

    const history = await readHistory(dir);
    expect(history.problems).toEqual([]);
    expect(history.runs.map((r) => r.run_id)).toEqual([a.run_id, b.run_id]);
    expect(history.runs[1]).toEqual({ ...b, git: { commit: 'abc123', branch: 'main' }, cases });
    expect(history.runs[0]!.cases).toEqual(cases);
  });

  it('leaves out what the run line already says, and documents short keys', () => {
    const text = encodeRun(makeRun(0), [makeCase('a')]);
    const [, line] = text.trimEnd().split('\n');
    expect(JSON.parse(line!)).toEqual({
      s: 'support',
      c: 'a',
      n: 10,
      k: 10,
      tk: [1200, 310],
      usd: 0.00123,
      ms: [812, 1490],
    });
  });

  it('keeps tool-call counts for a tool case as "tu", and nothing for a case without tools', async () => {
    const tools = makeCase('refund', {
      passes: 7,
      status: 'fail',
      tools: { answered: 10, triggered: 9, valid: 7 },
    });
    const text = encodeRun(makeRun(0), [tools, makeCase('plain')]);
    const [head, toolLine, plainLine] = text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(toolLine.tu).toEqual([10, 9, 7]);
    expect(plainLine).not.toHaveProperty('tu');
    // An added key every reader may ignore: the line format's version stays.
    expect(head.v).toBe(1);
    await appendRun(dir, makeRun(0), [tools, makeCase('plain')]);
    const history = await readHistory(dir);
    expect(history.problems).toEqual([]);
    expect(history.runs[0]!.cases.map((c) => c.tools)).toEqual([
      { answered: 10, triggered: 9, valid: 7 },
      null,
    ]);
  });

  it('reads a case line written before tool counts as a case without tools, and inconsistent counts as none', async () => {
    const run = encodeRun(makeRun(0), []);
    const lines = [
      // As driftcheck wrote a case before it kept tool counts.
      '{"s":"support","c":"old","n":10,"k":10,"tk":[1200,310],"usd":0.00123,"ms":[812,1490]}',
      '{"s":"support","c":"more-answered-than-sent","n":2,"k":2,"tu":[3,1,1]}',
      '{"s":"support","c":"more-valid-than-called","n":2,"k":2,"tu":[2,1,2]}',
      '{"s":"support","c":"not-counts","n":2,"k":2,"tu":[2,"1",1]}',
      '{"s":"support","c":"zero-called","n":2,"k":2,"tu":[2,0,0]}',
    ];
    await appendFile(join(dir, '2026-11.jsonl'), `${run}${lines.join('\n')}\n`);
    const history = await readHistory(dir);
    expect(history.problems).toEqual([]);
    expect(history.runs[0]!.cases.map((c) => [c.case, c.tools])).toEqual([
      ['old', null],
      ['more-answered-than-sent', null],
      ['more-valid-than-called', null],
      ['not-counts', null],
      ['zero-called', { answered: 2, triggered: 0, valid: 0 }],
    ]);
    expect(history.runs[0]!.cases[0]).toEqual(makeCase('old'));
  });

  it("keeps a conversation's steps, within-max_steps count and trajectory digest, and reads an older or inconsistent line as no conversation", async () => {
    const loop = { steps: 7, within: 1, trajectory: '0a1b2c3d' };
    await appendRun(dir, makeRun(0), [makeCase('loop', { samples: 2, passes: 1, loop }), makeCase('plain')]);
    const written = (await readFile(join(dir, '2026-11.jsonl'), 'utf8')).split('\n');
    expect(written[1]).toContain('"sp":[7,1],"tj":"0a1b2c3d"');
    // A case of single requests writes neither key.
    expect(written[2]).not.toMatch(/"sp"|"tj"/);
    const lines = [
      '{"s":"support","c":"more-within-than-sent","n":2,"k":2,"sp":[4,3],"tj":"0a1b2c3d"}',
      '{"s":"support","c":"fewer-steps-than-within","n":2,"k":2,"sp":[1,2],"tj":"0a1b2c3d"}',
      '{"s":"support","c":"no-digest","n":2,"k":2,"sp":[4,2]}',
    ];
    await appendFile(join(dir, '2026-11.jsonl'), `${encodeRun(makeRun(1), [])}${lines.join('\n')}\n`);
    const history = await readHistory(dir);
    expect(history.problems).toEqual([]);
    expect(history.runs[0]!.cases).toEqual([
      makeCase('loop', { samples: 2, passes: 1, loop }),
      makeCase('plain'),
    ]);
    expect(history.runs[1]!.cases.map((c) => [c.case, c.loop])).toEqual([
      ['more-within-than-sent', undefined],
      ['fewer-steps-than-within', undefined],
      ['no-digest', undefined],
    ]);
  });

  it("keeps a streamed case's median time to first token, and reads an older or malformed line as none", async () => {
    await appendRun(dir, makeRun(0), [makeCase('streamed', { ttft_p50_ms: 412 }), makeCase('plain')]);
    const written = (await readFile(join(dir, '2026-11.jsonl'), 'utf8')).split('\n');
    expect(written[1]).toContain('"tt":412');
    // A case not streamed writes no key: its history is as large as before.
    expect(written[2]).not.toContain('"tt"');
    const lines = [
      '{"s":"support","c":"negative","n":2,"k":2,"tt":-5}',
      '{"s":"support","c":"text","n":2,"k":2,"tt":"412"}',
    ];
    await appendFile(join(dir, '2026-11.jsonl'), `${encodeRun(makeRun(1), [])}${lines.join('\n')}\n`);
    const history = await readHistory(dir);
    expect(history.problems).toEqual([]);
    expect(history.runs[0]!.cases).toEqual([makeCase('streamed', { ttft_p50_ms: 412 }), makeCase('plain')]);
    expect(history.runs[1]!.cases.map((c) => [c.case, c.ttft_p50_ms])).toEqual([
      ['negative', undefined],
      ['text', undefined],
    ]);
  });

  it('adds the same run twice at once as one run: the look and the append happen under the lock', async () => {
    const results = await Promise.all([1, 2, 3].map(() => appendRun(dir, makeRun(0), [makeCase('a')])));
    expect(results.map((r) => r.added).sort()).toEqual([false, false, true]);
    const text = await readFile(join(dir, '2026-11.jsonl'), 'utf8');
    expect(text.split('\n').filter((line) => line.startsWith('{"t":"run"'))).toHaveLength(1);
    expect(await readdir(dir)).toEqual(['2026-11.jsonl']); // the lock is gone
  });

  it('starts on a line of its own after a torn last line, so the run appended is read back', async () => {
    await appendRun(dir, makeRun(0), [makeCase('a')]);
    await appendFile(join(dir, '2026-11.jsonl'), '{"t":"run","v":1,"id":"torn');
    await appendRun(dir, makeRun(1), [makeCase('b')]);
    const history = await readHistory(dir);
    expect(history.runs.map((r) => r.run_id)).toEqual([makeRun(0).run_id, makeRun(1).run_id]);
    expect(history.problems.map((p) => p.line)).toEqual([3]);
  });

  it('reports corrupt and foreign lines with file and line, and keeps going', async () => {
    await appendRun(dir, makeRun(0), [makeCase('a')]);
    const file = join(dir, '2026-11.jsonl');
    await appendFile(
      file,
      [
        '{"s":"support","c":"torn","st":"p', // a torn line
        '{"hello":"world"}',
        '{"t":"run","v":99,"id":"x"}',
        '{"s":"support","c":"bad","st":"p","n":3,"k":4}',
        '',
      ].join('\n'),
    );
    await appendRun(dir, makeRun(1), [makeCase('a'), makeCase('b')]);
    const history = await readHistory(dir);
    expect(history.runs.map((r) => r.cases.length)).toEqual([1, 2]);
    expect(history.problems.map((p) => [p.line, p.reason.split(' ')[0]])).toEqual([
      [3, 'not'],
      [4, 'unknown'],
      [5, 'format'],
      [6, 'case'],
    ]);
    expect(history.problems[0]!.file).toBe(file);
  });

  it('flags case lines with no run before them in their file', async () => {
    await appendFile(join(dir, '2026-10.jsonl'), '{"s":"s","c":"a","st":"p","n":1,"k":1}\n');
    const history = await readHistory(dir);
    expect(history.runs).toEqual([]);
    expect(history.problems).toMatchObject([{ line: 1, reason: 'case line before any run line' }]);
  });

  it('records baseline acceptance as an event', async () => {
    await appendBaselineAccepted(dir, { suite: 'support', source_run: 'r1', at: '2026-11-03T08:00:00.000Z' });
    const history = await readHistory(dir);
    expect(history.baselines).toEqual([
      { suite: 'support', source_run: 'r1', at: '2026-11-03T08:00:00.000Z' },
    ]);
  });

  it('reads a missing folder as an empty history, and refuses a non-ISO start time', async () => {
    expect(await readHistory(join(dir, 'none'))).toEqual({
      runs: [],
      baselines: [],
      problems: [],
      months: 0,
    });
    expect(() => monthFile('yesterday')).toThrow(/not an ISO date-time/);
  });

  it('keeps a year of nightly runs of 1,000 cases under 50 MB', () => {
    const cases = Array.from({ length: 1000 }, (_, i) =>
      makeCase(`case-with-a-realistic-name-${i}`, {
        passes: 9,
        status: 'fail',
        tokens: { prompt: 1234, completion: 567, total: 1801 },
        cost: 0.0012345,
        latency_p50_ms: 1234,
        latency_p95_ms: 2345,
      }),
    );
    const perRun = Buffer.byteLength(encodeRun(makeRun(0), cases));
    const year = perRun * 365;
    console.log(
      `history size: ${(perRun / 1024).toFixed(1)} KiB per 1,000 case-nights; 365 nights × 1,000 cases = ${(year / 1e6).toFixed(1)} MB`,
    );
    expect(year).toBeLessThan(50e6);
  });
});

const run = promisify(execFile);
const DIST_STORE = new URL('../../../dist/stored/history/store.js', import.meta.url);

// Two real processes appending at once; the compiled store (npm test builds dist/ first).
describe('history store, concurrent appends', () => {
  it('never tears or interleaves lines when two processes append at once', async () => {
    const script = `
      const { appendRun } = await import(process.argv[1]);
      const [dir, who] = process.argv.slice(2);
      const cases = Array.from({ length: 2000 }, (_, i) => ({ suite: 's', case: who + '-' + i, status: 'pass',
        samples: 10, passes: 10, error_kinds: [], drift_kinds: [], model: 'm', provider: null,
        tokens: { prompt: 1, completion: 2, total: 3 }, cost: null, latency_p50_ms: 5, latency_p95_ms: 9 }));
      for (let r = 0; r < 25; r++) {
        const start = new Date(Date.UTC(2026, 10, 1, 0, 0, r)).toISOString();
        await appendRun(dir, { run_id: who + r, started_at: start, finished_at: start, exit_code: 0,
          status: 'completed', suites: [{ suite: 's', models: ['m'], providers: [], baseline_source_run: null }] }, cases);
      }`;
    const child = (who: string) =>
      run(process.execPath, ['--input-type=module', '-e', script, DIST_STORE.href, dir, who]);
    await Promise.all([child('a'), child('b')]);
    const text = await readFile(join(dir, '2026-11.jsonl'), 'utf8');
    expect(text.split('\n').length).toBe(2 * 25 * 2001 + 1);
    const history = await readHistory(dir);
    expect(history.problems).toEqual([]);
    expect(history.runs).toHaveLength(50);
    for (const r of history.runs) {
      expect(r.cases).toHaveLength(2000);
      // Every case of a run sits under its own run line: no interleaving.
      expect(r.cases.every((c) => c.case.startsWith(r.run_id[0]!))).toBe(true);
    }
  });
});
