import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  makeProject,
  readReport,
  readSamples,
  readTree,
  runCli,
  runDirFrom,
  startSimProcess,
} from '../helpers/cli.js';
import { completion, sendJson, startLoopbackService } from '../hostile/loopback.js';

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
      // The answer the model wrote and the auth error that echoed the key.
      expect(run.stderr).toMatch(/replaced by \[REDACTED\] in 2 sample/);
      // …and appear nowhere we wrote.
      expect(outputs).not.toContain(ROUTER_KEY);
      expect(outputs).not.toContain(DIRECT_KEY);
      const report = [...files.entries()].find(([f]) => f.endsWith('report.json'))![1];
      // A case line leaves out `redacted` when it is false (report.json schema 3).
      const redacted = (id: string) =>
        JSON.parse(report).cases.find((c: { case: string }) => c.case === id).redacted ?? false;
      expect(redacted('model-writes-key')).toBe(true);
      // An error message whose key was replaced says so too.
      expect(redacted('echoed-in-error')).toBe(true);
      expect(redacted('fine')).toBe(false);
    } finally {
      await sim.stop();
      await project.cleanup();
    }
  });

  it('leaves not even a piece of a key where a check or a message cuts an answer that echoes it', async () => {
    // Long (73 characters), so a quote cut at 80 characters or a message cut at 500 falls inside it.
    const key = `sk-or-v1-${'9a8b7c6d5e4f3021'.repeat(4)}`;
    // Pushes an echoed key across the 500-character cut of a service's error message.
    const pad = 'x'.repeat(450);
    const service = await startLoopbackService((req, res) => {
      if (req.prompt === 'content')
        return sendJson(res, 200, completion(`Your key is ${key}. Keep it safe.`));
      if (req.prompt === 'header') {
        res.writeHead(200, { 'content-type': 'application/json', 'x-openrouter-cache-status': key });
        return res.end(completion('fine'));
      }
      if (req.prompt === 'body-error') {
        const error = { code: 502, message: `${pad} upstream refused ${key}` };
        return sendJson(res, 200, JSON.stringify({ id: 'gen-2', model: 'openai/gpt-4o-mini', error }));
      }
      // 'error' and verify's own call: a 400 whose message echoes the key past the cut.
      sendJson(
        res,
        400,
        JSON.stringify({ error: { code: 400, message: `${pad} bad request made with ${key}` } }),
      );
    });
    const project = await makeProject({
      'driftcheck.config.yaml': `services:
  router: { kind: router, base_url: ${service.url}/api/v1, api_key_env: OPENROUTER_API_KEY, retries: 0 }
`,
      'suites/echo.yaml': `suite: echo
service: router
model: openai/gpt-4o-mini
cases:
  - { id: content-equals, prompt: content, expect: [{ equals: "Your key is" }] }
  - { id: content-not-contains, prompt: content, expect: [{ not_contains: "key is" }] }
  - { id: error, prompt: error, expect: [{ non_empty: true }] }
  - { id: header, prompt: header, expect: [{ non_empty: true }] }
  - { id: body-error, prompt: body-error, expect: [{ non_empty: true }] }
`,
    });
    try {
      const env = { OPENROUTER_API_KEY: key };
      const run = await runCli(['run', '--update-baselines', '--history', 'history'], {
        cwd: project.dir,
        env,
      });
      expect(run.code).toBe(1);
      const verify = await runCli(['verify', '--model', 'openai/gpt-4o-mini'], { cwd: project.dir, env });
      expect(verify.code).toBe(1);
      expect(verify.stdout).toContain('bad request made with [REDACTED]');
      const runDir = runDirFrom(run, project.dir);
      const files = new Map([
        ...(await readTree(join(project.dir, 'reports'))),
        ...(await readTree(join(project.dir, 'baselines'))),
        ...(await readTree(join(project.dir, 'history'))),
      ]);
      for (const name of ['results.jsonl', 'report.json', 'report.html', 'junit.xml', 'summary.md'])
        expect([...files.keys()].some((f) => f.endsWith(name))).toBe(true);
      expect([...files.keys()].some((f) => f.includes('baselines'))).toBe(true);
      const outputs = [run.stdout, run.stderr, verify.stdout, verify.stderr, ...files.values()].join('\n');
      // Every 12-character piece of the key: a cut anywhere inside it would leave one.
      const leaked = [];
      for (let i = 0; i + 12 <= key.length; i++) if (outputs.includes(key.slice(i, i + 12))) leaked.push(i);
      expect(leaked).toEqual([]);
      // What the checks and messages say is about the redacted answer…
      const samples = await readSamples(runDir);
      const byCase = new Map(samples.map((s) => [s.case, s]));
      expect(byCase.get('content-equals')!.checks[0]!.message).toContain('Your key is [REDACTED]');
      expect(byCase.get('content-not-contains')!.checks[0]!.message).toContain('[REDACTED]');
      expect(byCase.get('error')!.error!.message).toContain('bad request made with [REDACTED]');
      expect(byCase.get('body-error')!.error).toMatchObject({ kind: 'body_error' });
      expect(byCase.get('header')!.cache_status).toBe('[REDACTED]');
      // …and every sample whose answer held the key says so, in the journal and the report.
      expect(samples.map((s) => [s.case, s.redacted])).toEqual(
        ['content-equals', 'content-not-contains', 'error', 'header', 'body-error'].map((c) => [c, true]),
      );
      expect((await readReport(runDir)).cases.every((c) => c.redacted)).toBe(true);
      expect(run.stderr).toMatch(/replaced by \[REDACTED\] in 5 sample/);
    } finally {
      await service.close();
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
