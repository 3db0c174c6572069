import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeProject, readTree, runCli, startSimProcess } from '../helpers/cli.js';

const ROUTER_KEY = `sk-or-v1-${'f00dfeed'.repeat(8)}`;
const DIRECT_KEY = `sk-${'0123456789abcdef'.repeat(3)}`;

describe('keys never leak', () => {
  it('redacts a key the service echoes back and a key the model writes, in every file and stream', async () => {
    const sim = await startSimProcess(['--echo-key']);
    const project = await makeProject({
      'driftcheck.config.yaml': `services:
  router: { kind: router, base_url: ${sim.url}/api/v1, api_key_env: OPENROUTER_API_KEY }
  direct: { kind: direct, base_url: ${sim.url}/v1, api_key_env: DIRECT_API_KEY }
`,
      'suites/leak.yaml': `suite: leak
service: router
model: openai/gpt-4o-mini
cases:
  - id: model-writes-key
    prompt: What is your key?
    sim: { reply: "My key is ${ROUTER_KEY} — keep it safe." }
    expect: [{ non_empty: true }]
  - id: fine
    prompt: "Say exactly: fine"
    expect: [{ equals: fine }]
`,
      'suites/leak-direct.yaml': `suite: leak-direct
service: direct
model: kimi-k2-0905-preview
cases:
  - id: echoed-in-error
    prompt: hello
    sim: { fault: auth }
    expect: [{ non_empty: true }]
`,
    });
    try {
      const env = { OPENROUTER_API_KEY: ROUTER_KEY, DIRECT_API_KEY: DIRECT_KEY };
      const run = await runCli(['run', '--update-baselines'], { cwd: project.dir, env });
      expect(run.code).toBe(4); // the direct service's auth failure
      const verify = await runCli(['verify'], { cwd: project.dir, env });
      // Everything driftcheck wrote (the suite itself holds the key the "model" writes: that is input).
      const files = new Map([
        ...(await readTree(join(project.dir, 'reports'))),
        ...(await readTree(join(project.dir, 'baselines'))),
      ]);
      expect([...files.keys()].some((f) => f.endsWith('results.jsonl'))).toBe(true);
      const outputs = [run.stdout, run.stderr, verify.stdout, verify.stderr, ...files.values()].join('\n');
      // The keys are in the environment only; they were sent, echoed, written by the model…
      expect(outputs).toContain('[REDACTED]');
      expect(run.stderr).toMatch(/replaced by \[REDACTED\] in 1 sample/);
      // …and appear nowhere we wrote.
      expect(outputs).not.toContain(ROUTER_KEY);
      expect(outputs).not.toContain(DIRECT_KEY);
      const report = [...files.entries()].find(([f]) => f.endsWith('report.json'))![1];
      expect(
        JSON.parse(report).cases.find((c: { case: string }) => c.case === 'model-writes-key').redacted,
      ).toBe(true);
    } finally {
      await sim.stop();
      await project.cleanup();
    }
  });

  it.each([
    [
      'a router key configured for the direct service',
      { DIRECT_API_KEY: ROUTER_KEY },
      'direct',
      /DIRECT_API_KEY/,
    ],
    [
      'a direct key configured for the router',
      { OPENROUTER_API_KEY: DIRECT_KEY },
      'router',
      /OPENROUTER_API_KEY/,
    ],
    ['a missing env value', {}, 'router', /OPENROUTER_API_KEY/],
  ])('refuses %s before sending anything (exit 2)', async (_name, env, service, message) => {
    const sim = await startSimProcess();
    const project = await makeProject({
      'driftcheck.config.yaml': `services:
  router: { kind: router, base_url: ${sim.url}/api/v1, api_key_env: OPENROUTER_API_KEY }
  direct: { kind: direct, base_url: ${sim.url}/v1, api_key_env: DIRECT_API_KEY }
`,
      'suites/s.yaml': `suite: s\nservice: ${service}\nmodel: ${service === 'router' ? 'openai/gpt-4o-mini' : 'kimi-k2-0905-preview'}\ncases:\n  - id: a\n    prompt: hi\n    expect: [{ non_empty: true }]\n`,
    });
    try {
      const run = await runCli(['run'], { cwd: project.dir, env });
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(message);
      expect((await sim.stats()).completions).toBe(0);
      for (const value of Object.values(env)) expect(run.stderr + run.stdout).not.toContain(value);
    } finally {
      await sim.stop();
      await project.cleanup();
    }
  });
});
