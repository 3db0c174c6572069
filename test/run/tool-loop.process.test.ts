import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, readSamples, runCli, runDirFrom } from '../helpers/cli.js';
import {
  callOf as call,
  type Scripted,
  startToolServer,
  TOOL_ENV,
  toolConfig,
} from '../helpers/tool-server.js';

// The built binary, as CI runs it, on a tool loop against a scripted loopback service that
// loops, calls a tool nobody answers, and plays the flow through: the exit code, what the
// console says and what the journal keeps (test/run/tool-loop.cli.test.ts covers the rest
// in-process).
const SUITE = `suite: agent
service: router
model: openai/gpt-4o-mini
params:
  tools:
    - type: function
      function: { name: lookup_order, parameters: { type: object, properties: { order: { type: string } } } }
    - type: function
      function: { name: escalate, parameters: { type: object, properties: {} } }
tool_results:
  lookup_order: '{"status":"shipped","eta":"Friday"}'
cases:
  - id: status
    prompt: Where is order 42?
    expect: [{ contains: Friday }, { trajectory: [lookup_order] }, { no_repeated_call: true }]
  - id: loops
    prompt: loop
    max_steps: 2
  - id: escalates
    prompt: escalate
`;

const script = (prompt: string, n: number): Scripted =>
  prompt === 'Where is order 42?'
    ? n === 0
      ? call('lookup_order', { order: '42' })
      : { text: 'It ships Friday.' }
    : prompt === 'loop'
      ? call('lookup_order', { order: '42' })
      : call('escalate', {});

let server: Awaited<ReturnType<typeof startToolServer>>;
let project: Awaited<ReturnType<typeof makeProject>>;
beforeAll(async () => {
  server = await startToolServer(script);
  project = await makeProject({
    'driftcheck.config.yaml': toolConfig(server.url),
    'suites/agent.yaml': SUITE,
  });
});
afterAll(async () => {
  await server.close();
  await project.cleanup();
});

describe('driftcheck run (the binary) on a tool loop', () => {
  it('exits 1 naming the loop that ran out of steps and the call nobody answers; keeps every trajectory', async () => {
    const run = await runCli(['run', 'suites/agent.yaml'], { cwd: project.dir, env: TOOL_ENV });
    expect(run.code, run.stderr).toBe(1);
    const console_ = run.stdout.replace(/\n\s+/g, ' ');
    expect(console_).toContain(
      'max_steps_reached: still calling tools after 2 steps (max_steps 2; raise it if the task needs more)',
    );
    expect(console_).toContain('tool_result_missing: step 1 called escalate({})');
    expect(console_).not.toMatch(/agent\/status/); // it passed: not listed among the failures
    const samples = new Map((await readSamples(runDirFrom(run, project.dir))).map((s) => [s.case, s]));
    expect(samples.get('status')).toMatchObject({
      status: 'pass',
      content: 'It ships Friday.',
      trajectory: {
        steps: 2,
        calls: [{ tool: 'lookup_order', result: '{"status":"shipped","eta":"Friday"}' }],
      },
    });
    expect(samples.get('loops')!.trajectory!.calls).toHaveLength(2);
    expect(samples.get('escalates')!.error!.kind).toBe('tool_result_missing');
  });
});
