import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Baseline } from '../../src/stored/baseline/types.js';
import { readReport, runDirFrom } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';
import {
  callOf as call,
  type Scripted,
  type SentMessage,
  strictAgentParams,
  TOOL_ENV,
  useToolProject,
} from '../helpers/tool-server.js';

// A repeated tool-loop suite against a scripted loopback service: an agent that finishes a
// 3-step task (look the order up, check the policy, answer), except on the samples a night's
// script says it loops on lookup_order until max_steps.
const SUITE = `suite: agent
service: router
model: openai/gpt-4o-mini
repeat: 20
max_steps: 4
${strictAgentParams('lookup_order', 'check_policy')}tool_results:
  lookup_order: '{"status":"shipped","sku":"A-1"}'
  check_policy: { result: { refundable: true, window_days: 30 } }
cases:
  - id: refund
    prompt: Can I return order 42?
    expect: [{ contains: refundable }]
  - id: look-twice
    prompt: Can I return order 43?
    expect: [{ contains: refundable }]
    drift: { steps: { extra: 0 } } # any step beyond the baseline's median is steps_changed
`;

const REFUND = 'Can I return order 42?';
const LOOK_TWICE = 'Can I return order 43?';

/**
 * An agent that finishes the 3-step task (look the order up, check the policy, answer),
 * except in the samples `loops(prompt, sample)` names: those call lookup_order until max_steps.
 * A prompt's samples are numbered in the order their first requests came, and told apart later
 * by the first call's id, which every later step sends back; the prompts in `twice` look the
 * order up twice (4 steps).
 */
function agent(loops: (prompt: string, sample: number) => boolean, twice: readonly string[] = []) {
  // Each conversation's first request (prompt/n) → its sample, counted per prompt from 0.
  const samples = new Map<string, number>();
  const started = new Map<string, number>();
  return (prompt: string, n: number, messages: readonly SentMessage[]): Scripted => {
    const asked = messages.filter((m) => m.role === 'assistant');
    let sample: number;
    if (asked.length === 0) {
      sample = started.get(prompt) ?? 0;
      started.set(prompt, sample + 1);
      samples.set(`${prompt}/${n}`, sample);
    } else {
      const first = /^call_(\d+)_/.exec(asked[0]!.tool_calls![0]!.id)![1];
      sample = samples.get(`${prompt}/${first}`)!;
    }
    if (loops(prompt, sample)) return call('lookup_order', { order: '42' });
    const lookup = call('lookup_order', { order: '42' });
    const steps = twice.includes(prompt) ? [lookup, lookup] : [lookup];
    return (
      [...steps, call('check_policy', { sku: 'A-1' })][asked.length] ?? {
        text: 'Yes: it is refundable within 30 days.',
      }
    );
  };
}

const fixture = useToolProject(
  agent(() => false),
  { 'suites/agent.yaml': SUITE },
);

const runArgs = ['run', 'suites/agent.yaml', '--reporter', 'console,json'];

describe('a repeated tool loop', () => {
  it('drops its rate of finishing within max_steps when its agent loops on some samples tonight', async () => {
    fixture.server.rescript(agent(() => false));
    const first = await runMain([...runArgs, '--update-baselines'], {
      cwd: fixture.project.dir,
      env: TOOL_ENV,
    });
    expect(first.code, first.stderr).toBe(0);
    // The baseline keeps how many of its samples finished, as it keeps how many passed.
    const baseline = JSON.parse(
      await readFile(join(fixture.project.dir, 'baselines/agent.json'), 'utf8'),
    ) as Baseline;
    expect(baseline.cases.refund).toMatchObject({
      samples: { pass: 20, total: 20 },
      within_max_steps: { pass: 20, total: 20 },
    });

    // Tonight 8 of refund's 20 samples loop until max_steps; look-twice looks the order up twice.
    fixture.server.rescript(agent((prompt, sample) => prompt === REFUND && sample % 5 < 2, [LOOK_TWICE]));
    const night = await runMain(runArgs, { cwd: fixture.project.dir, env: TOOL_ENV });
    expect(night.code, night.stderr).toBe(1);
    const report = await readReport(runDirFrom(night, fixture.project.dir));
    const refund = report.cases.find((c) => c.case === 'refund')!;
    expect(refund.within_max_steps).toMatchObject({
      finished: 12,
      total: 20,
      rate: 0.6,
      baseline: { pass: 20, total: 20 },
      verdict: 'dropped',
    });
    const within = refund.drift.find((d) => d.kind === 'within_max_steps_dropped');
    expect(within).toMatchObject({
      severity: 'fail',
      baseline: { pass: 20, total: 20 },
      current: { pass: 12, total: 20 },
      message: expect.stringMatching(
        /^rate of finishing within max_steps 100% \(20\/20\) → 60% \(12\/20\), p = 6\.1e-4 /,
      ),
    });
    // Each looping sample is a failed sample of its pass rate, never dropped from the count…
    expect(refund.samples).toMatchObject({ sent: 20, passed: 12, errored: 8 });
    expect(refund.pass_rate).toMatchObject({ rate: 0.6, verdict: 'dropped' });
    expect(refund.error_kinds).toEqual({ max_steps_reached: 8 });
    // …and the case fails by its rates, not as an error of the service.
    expect(refund.status).toBe('fail');
    expect(refund.drift.map((d) => d.kind)).not.toContain('new_error');
    // Over the suite: the stratified test over both loops, 40/40 → 32/40.
    expect(report.suites[0]!.drift.find((d) => d.kind === 'within_max_steps_dropped')).toMatchObject({
      baseline: { pass: 40, total: 40 },
      current: { pass: 32, total: 40 },
    });
    const twice = report.cases.find((c) => c.case === 'look-twice')!;
    expect(twice.within_max_steps).toMatchObject({ finished: 20, verdict: 'stable' });
    // Every sample took 4 steps, one beyond the baseline's: its own drift.steps.extra of 0 says so.
    expect(twice.trajectory).toMatchObject({ steps: 4, median_steps: 4 });
    expect(twice.drift.find((d) => d.kind === 'steps_changed')).toMatchObject({
      baseline: 3,
      current: 4,
      message: "took a median of 4 steps over its samples, the baseline's median 3 (drift.steps.extra: 0)",
    });

    const console = night.stdout.replace(/\s+/g, ' ');
    expect(console).toContain('rate of finishing within max_steps 100% (20/20) → 60% (12/20)');
    expect(console).toContain(
      'agent (suite) within_max_steps_dropped suite rate of finishing within max_steps 100% (40/40) → 80% (32/40) over 2 repeated tool loops',
    );
  });

  it('passes a night that loops as often as its baseline did', async () => {
    // One sample in 20 of each case loops, in the baseline and tonight: 95% → 95%.
    fixture.server.rescript(agent((_prompt, sample) => sample === 7));
    const first = await runMain([...runArgs, '--update-baselines'], {
      cwd: fixture.project.dir,
      env: TOOL_ENV,
    });
    // The baseline night itself passes by its rates: 19 of 20 samples pass.
    expect(first.code, first.stdout + first.stderr).toBe(0);
    fixture.server.rescript(agent((_prompt, sample) => sample === 12));
    const night = await runMain(runArgs, { cwd: fixture.project.dir, env: TOOL_ENV });
    expect(night.code, night.stdout + night.stderr).toBe(0);
    const report = await readReport(runDirFrom(night, fixture.project.dir));
    for (const c of report.cases) {
      expect(c.status).toBe('pass');
      expect(c.samples).toMatchObject({ passed: 19, errored: 1 });
      expect(c.within_max_steps).toMatchObject({ finished: 19, total: 20, verdict: 'flaky' });
      expect(c.drift.map((d) => d.kind)).not.toContain('within_max_steps_dropped');
      expect(c.drift.map((d) => d.kind)).not.toContain('new_error');
    }
    expect(report.suites[0]!.drift.map((d) => d.kind)).not.toContain('within_max_steps_dropped');
  });
});
