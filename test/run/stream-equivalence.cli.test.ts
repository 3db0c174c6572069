import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFromRepo, makeProject, readSamples, runDirFrom } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';
import type { SampleResult } from '../../src/stored/journal/records.js';

// Issue 37, item 5: a streamed and a plain run of the same cases record the same answers.
// Each run has its own embedded simulator with the same seed, so both draw the same coins;
// one asks for every answer as a stream (--stream), the other for plain bodies.

let project: Awaited<ReturnType<typeof makeProject>>;
const runs: Map<string, SampleResult>[] = [];
beforeAll(async () => {
  project = await makeProject();
  await copyFromRepo(project.dir, 'suites/demo', 'baselines');
  for (const flags of [[], ['--stream']]) {
    const run = await runMain(['run', '--sim', 'suites/demo', '--concurrency', '1', ...flags], {
      cwd: project.dir,
      env: { DRIFTCHECK_SIM_SEED: '11' },
    });
    expect(run.code, run.stderr).toBe(1);
    runs.push(new Map((await readSamples(runDirFrom(run, project.dir))).map((s) => [s.key, s])));
  }
});
afterAll(() => project.cleanup());

/**
 * What an answer said, whichever way it came. An error inside a 200 answer is documented in
 * two forms — a plain body's top-level `error`, a stream's error event whose choice finishes
 * with `error` — so an errored sample's finish_reason is the form's, not the answer's.
 */
const said = (s: SampleResult) => ({
  status: s.status,
  error: s.error?.kind ?? null,
  model: s.model,
  content: s.content,
  finish_reason: s.error ? 'n/a' : s.finish_reason,
  usage: s.usage,
  tool_calls: s.tool_calls?.map((c) => [c.name, c.arguments, c.valid]) ?? null,
  trajectory: s.trajectory ?? null,
  checks: s.checks.map((c) => [c.type, c.pass]),
});

describe('a streamed run and a plain run of the demo, one seed', () => {
  it('record the same content, finish_reason, usage, tool calls and trajectories', () => {
    const [plain, streamed] = runs as [Map<string, SampleResult>, Map<string, SampleResult>];
    expect([...streamed.keys()].sort()).toEqual([...plain.keys()].sort());
    let compared = 0;
    for (const [key, p] of plain) {
      // The streamed suite's faults are stream faults: they show only when it streams.
      if (p.suite === 'streaming-demo') continue;
      expect(said(streamed.get(key)!), key).toEqual(said(p));
      compared++;
    }
    expect(compared).toBeGreaterThan(20);
  });

  it('keep how the answers streamed only on the streamed run', () => {
    const [plain, streamed] = runs as [Map<string, SampleResult>, Map<string, SampleResult>];
    const refund = 'support-demo/refund-window#0';
    expect(plain.get(refund)!.stream).toBeUndefined();
    expect(streamed.get(refund)!.stream).toMatchObject({ chunks: expect.any(Number) });
    expect(streamed.get(refund)!.stream!.first_token_ms).not.toBeNull();
  });
});
