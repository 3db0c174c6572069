import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeProject, readReport, readSamples, runCli, runDirFrom, spawnCli } from '../helpers/cli.js';
import { sendJson, startLoopbackService } from './loopback.js';

const ENV = { OPENROUTER_API_KEY: `sk-or-v1-${'3'.repeat(48)}` };
/**
 * 40 a's and a '!': JavaScript's backtracking engine takes about 135 s to find that
 * `^(a+)+$` does not match it, doubling with each further `a`.
 */
const HOSTILE = `${'a'.repeat(40)}!`;
const CATASTROPHIC = '^(a+)+$';

/** A completion: text, or one call of `lookup` with these arguments. */
function answer(what: { content: string } | { args: unknown }): string {
  const message =
    'content' in what
      ? { role: 'assistant', content: what.content }
      : {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'lookup', arguments: JSON.stringify(what.args) },
            },
          ],
        };
  return JSON.stringify({
    id: 'gen-1',
    object: 'chat.completion',
    model: 'openai/gpt-4o-mini',
    choices: [{ index: 0, message, finish_reason: 'content' in what ? 'stop' : 'tool_calls' }],
    usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
  });
}

/** The catastrophic pattern in every place a pattern is matched against an answer. */
const CASES = `params:
  tools:
    - type: function
      function:
        name: lookup
        parameters: { type: object, required: [code], properties: { code: { type: string, pattern: '${CATASTROPHIC}' } } }
cases:
  - id: regex
    prompt: text
    expect: [{ regex: '${CATASTROPHIC}' }, { regex: '/^(A+)+$/i' }]
  - id: json-schema
    prompt: json
    expect: [{ json_schema: { type: object, properties: { code: { type: string, pattern: '${CATASTROPHIC}' } } } }]
  - id: pattern-properties
    prompt: json
    expect: [{ json_schema: { type: object, patternProperties: { '${CATASTROPHIC}': { type: number } } } }]
  - id: tool-parameters
    prompt: call
    expect: [{ tool_calls_valid: true }]
  - id: tool-call-schema
    prompt: call
    expect: [{ tool_call: { name: lookup, schema: { properties: { code: { pattern: '${CATASTROPHIC}' } } } } }]
`;

/** Answers every prompt with the hostile text in the place its case looks; `last` is held for the signal test. */
function respond(prompt: string): string {
  if (prompt === 'text') return answer({ content: HOSTILE });
  if (prompt === 'json') return answer({ content: JSON.stringify({ code: HOSTILE, [HOSTILE]: 'x' }) });
  return answer({ args: { code: HOSTILE } });
}

const config = (url: string) => `services:
  router: { kind: router, base_url: ${url}/api/v1, api_key_env: OPENROUTER_API_KEY, retries: 0, concurrency: 1 }
`;

describe('a catastrophic pattern on a hostile answer', () => {
  it('fails its checks with a message, in a regex check, a json_schema check, tool parameters and a tool_call schema', async () => {
    const service = await startLoopbackService((req, res) => sendJson(res, 200, respond(req.prompt)));
    const project = await makeProject({
      'driftcheck.config.yaml': config(service.url),
      'suites/redos.yaml': `suite: redos\nservice: router\nmodel: openai/gpt-4o-mini\n${CASES}`,
    });
    const { child, result } = spawnCli(['run'], { cwd: project.dir, env: ENV });
    try {
      // Finishing inside the test's time-out is the proof: each check alone took 135 s.
      const run = await result;
      expect(run.stderr).not.toMatch(/internal error/);
      expect(run.code, run.stderr).toBe(1);
      const samples = new Map((await readSamples(runDirFrom(run, project.dir))).map((s) => [s.case, s]));
      expect(samples.get('regex')!.checks.map((c) => [c.pass, c.message])).toEqual([
        [false, `expected content to match /${CATASTROPHIC}/, got "${HOSTILE}"`],
        [false, `expected content to match /^(A+)+$/i, got "${HOSTILE}"`],
      ]);
      expect(samples.get('json-schema')!.checks[0]).toMatchObject({
        pass: false,
        message: expect.stringMatching(/\/code must match pattern "\^\(a\+\)\+\$"/),
      });
      expect(samples.get('pattern-properties')!.checks[0]).toMatchObject({ pass: true });
      expect(samples.get('tool-parameters')!.tool_calls![0]).toMatchObject({
        valid: false,
        invalid: 'schema_mismatch',
        problem: expect.stringMatching(/\/code must match pattern/),
      });
      expect(samples.get('tool-call-schema')!.checks[0]).toMatchObject({
        pass: false,
        message: expect.stringMatching(/lookup arguments: \/code must match pattern/),
      });
    } finally {
      child.kill('SIGKILL');
      await service.close();
      await project.cleanup();
    }
  });

  it('SIGTERM as a hostile answer is checked is answered: exit 143, and the report holds that check', async () => {
    let signalled = false;
    const service = await startLoopbackService((req, res) => {
      sendJson(res, 200, respond(req.prompt));
      // The signal comes with the first hostile answer (the regex case), as the run checks it.
      if (!signalled) {
        signalled = true;
        running.child.kill('SIGTERM');
      }
    });
    const project = await makeProject({
      'driftcheck.config.yaml': config(service.url),
      'suites/redos.yaml': `suite: redos\nservice: router\nmodel: openai/gpt-4o-mini\n${CASES}`,
    });
    const running = spawnCli(['run'], { cwd: project.dir, env: ENV });
    try {
      // Answered within the test's time-out: stuck in the check, the signal waited 135 s.
      const run = await running.result;
      expect(signalled).toBe(true);
      expect(run.stderr).toMatch(/SIGTERM — no new requests/);
      expect(run.code, run.stderr).toBe(143);
      const dir = runDirFrom(run, project.dir);
      expect(existsSync(join(dir, 'report.html'))).toBe(true);
      const report = await readReport(dir);
      expect(report.run.status).toBe('interrupted');
      const byCase = new Map(report.cases.map((c) => [c.case, c]));
      expect(byCase.get('regex')?.status).toBe('fail');
      expect(byCase.get('regex')?.checks[0]?.message).toBe(
        `expected content to match /${CATASTROPHIC}/, got "${HOSTILE}"`,
      );
      // What was sent before the signal was read is checked (it fails), the rest is not run.
      for (const id of ['json-schema', 'tool-parameters', 'tool-call-schema'])
        expect(['fail', 'not_run'], id).toContain(byCase.get(id)?.status);
    } finally {
      running.child.kill('SIGKILL');
      await service.close();
      await project.cleanup();
    }
  });
});

describe('a pattern linear-time matching cannot run', () => {
  it('is refused by validate and run at its file:line:col, saying why and what to write instead (exit 2)', async () => {
    const project = await makeProject({
      'driftcheck.config.yaml': config('http://127.0.0.1:9'),
      'suites/look.yaml': `suite: look
service: router
model: openai/gpt-4o-mini
params:
  tools:
    - type: function
      function:
        name: lookup
        parameters:
          type: object
          properties:
            code: { type: string, pattern: '(?<=x)y' }
cases:
  - id: lookahead
    prompt: hello
    expect:
      - regex: '^(?!.*error).*$'
  - id: backreference
    prompt: hello
    expect:
      - json_schema:
          type: object
          properties:
            quoted: { type: string, pattern: '(["\\x27]).*\\1' }
  - id: response-format
    prompt: hello
    params:
      response_format:
        type: json_schema
        json_schema: { name: x, schema: { type: object, patternProperties: { '^(?=a)': {} } } }
`,
    });
    try {
      for (const command of ['validate', 'run']) {
        const result = await runCli([command], { cwd: project.dir, env: ENV });
        expect(result.stderr).not.toMatch(/internal error/);
        expect(result.code, result.stderr).toBe(2);
        const lines = result.stderr.split('\n');
        const at = (where: string) => lines.find((l) => l.includes(`suites/look.yaml:${where}: `)) ?? '';
        expect(at('12:44'), result.stderr).toMatch(
          /the pattern "\(\?<=x\)y" cannot be used: a lookbehind \(\?<=…\) cannot run: driftcheck matches patterns in linear time \(RE2\)/,
        );
        expect(at('17:16')).toMatch(
          /a lookahead \(\?!…\) cannot run: driftcheck matches patterns in linear time/,
        );
        expect(at('24:46')).toMatch(
          /properties\.quoted\.pattern: the pattern .* a backreference \(\\1\) cannot run/,
        );
        expect(at('30:88')).toMatch(/a lookahead \(\?=…\) cannot run/);
        // What to write instead.
        expect(result.stderr).toMatch(/not_contains/);
        expect(result.stderr).toMatch(/\(\?:'\[\^'\]\*'\|"\[\^"\]\*"\)/);
      }
      expect(existsSync(join(project.dir, 'reports'))).toBe(false);
    } finally {
      await project.cleanup();
    }
  });
});
