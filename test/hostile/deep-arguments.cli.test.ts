import { describe, expect, it } from 'vitest';
import { makeProject, readReport, readSamples, runDirFrom } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';
import { sendJson, startLoopbackService } from './loopback.js';

const ENV = { OPENROUTER_API_KEY: `sk-or-v1-${'5'.repeat(48)}` };
/** 100,000 nested arrays: the arguments string is 200 KB, far inside the body cap. */
const DEEP = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;

/** A completion whose one tool call carries `args` (the arguments string) as the services send it. */
function toolAnswer(args: string): string {
  return JSON.stringify({
    id: 'gen-1',
    object: 'chat.completion',
    model: 'openai/gpt-4o-mini',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: args } },
          ],
        },
        finish_reason: 'tool_calls',
      },
    ],
    usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
  });
}

const TOOLS = `params:
  tools:
    - type: function
      function:
        name: get_weather
        parameters: { type: object, required: [city], properties: { city: { type: string } } }
`;

const CASES = `cases:
  - id: deep-array
    prompt: deep-array
    expect: [{ tool_calls_valid: true }, { tool_call: get_weather }]
  - id: deep-in-object
    prompt: deep-in-object
    expect: [{ tool_call: { name: get_weather, arguments: { city: Paris } } }]
  - id: honest
    prompt: honest
    expect: [{ tool_calls_valid: true }, { tool_call: { name: get_weather, arguments: { city: Paris } } }]
`;

/**
 * Without declared tools a check may not name one (it could never fail): the calls are judged
 * by their JSON alone.
 */
const UNDECLARED_CASES = `cases:
  - id: deep-array
    prompt: deep-array
    expect: [{ tool_calls_valid: true }]
  - id: deep-in-object
    prompt: deep-in-object
    expect: [{ tool_calls_valid: true }]
  - id: honest
    prompt: honest
    expect: [{ tool_calls_valid: true }]
`;

describe('tool-call arguments nested 100,000 deep', () => {
  it('make an invalid call with a message, with or without declared tools; the run, its report, resume and baselines work', async () => {
    const service = await startLoopbackService((req, res) => {
      if (req.prompt === 'deep-array') return sendJson(res, 200, toolAnswer(DEEP));
      if (req.prompt === 'deep-in-object') return sendJson(res, 200, toolAnswer(`{"city":${DEEP}}`));
      sendJson(res, 200, toolAnswer('{"city":"Paris"}'));
    });
    const project = await makeProject({
      'driftcheck.config.yaml': `services:
  router: { kind: router, base_url: ${service.url}/api/v1, api_key_env: OPENROUTER_API_KEY, retries: 0 }
`,
      // The same cases with the tools declared (calls judged against them) and without.
      'suites/declared.yaml': `suite: declared\nservice: router\nmodel: openai/gpt-4o-mini\n${TOOLS}${CASES}`,
      'suites/undeclared.yaml': `suite: undeclared\nservice: router\nmodel: openai/gpt-4o-mini\n${UNDECLARED_CASES}`,
    });
    try {
      const run = await runMain(['run'], { cwd: project.dir, env: ENV });
      expect(run.stderr).not.toMatch(/internal error/);
      expect(run.code, run.stderr).toBe(1);
      const dir = runDirFrom(run, project.dir);

      const samples = await readSamples(dir);
      expect(samples).toHaveLength(6);
      for (const suite of ['declared', 'undeclared']) {
        for (const id of ['deep-array', 'deep-in-object']) {
          const sample = samples.find((s) => s.suite === suite && s.case === id)!;
          const [call] = sample.tool_calls ?? [];
          expect(call, `${suite}/${id}`).toMatchObject({
            name: 'get_weather',
            parsed: null,
            valid: false,
            invalid: 'invalid_json',
            problem: expect.stringMatching(/nest more than 256 levels deep/),
          });
          // The arguments are kept as received (the body's byte cap bounds them).
          expect(call!.arguments).toHaveLength(id === 'deep-array' ? DEEP.length : DEEP.length + 9);
          expect(sample.status, `${suite}/${id}`).toBe('fail');
        }
        const honest = samples.find((s) => s.suite === suite && s.case === 'honest')!;
        expect(honest.status).toBe('pass');
      }
      const deepArray = samples.find((s) => s.suite === 'declared' && s.case === 'deep-array')!;
      expect(deepArray.checks[0]!.message).toMatch(
        /invalid_json: the arguments nest more than 256 levels deep/,
      );

      const byCase = async () =>
        new Map((await readReport(dir)).cases.map((c) => [`${c.suite}/${c.case}`, c]));
      expect((await byCase()).get('declared/deep-in-object')?.status).toBe('fail');
      for (const args of [
        ['report', dir],
        ['run', '--resume', dir],
      ]) {
        const again = await runMain(args, { cwd: project.dir, env: ENV });
        expect(again.stderr, args.join(' ')).not.toMatch(/internal error/);
        expect(again.code, `${args.join(' ')}: ${again.stderr}`).toBe(1);
        expect((await byCase()).get('undeclared/deep-array')?.status).toBe('fail');
      }

      // Those answers as the baseline: the next night compares its calls against them.
      const accept = await runMain(['baseline', 'accept', '--force', dir], { cwd: project.dir, env: ENV });
      expect(accept.stderr).not.toMatch(/internal error/);
      expect(accept.code, accept.stderr).toBe(0);
      const rerun = await runMain(['run'], { cwd: project.dir, env: ENV });
      expect(rerun.stderr).not.toMatch(/internal error/);
      expect(rerun.code, rerun.stderr).toBe(1);
      const cases = (await readReport(runDirFrom(rerun, project.dir))).cases;
      expect(cases.find((c) => c.suite === 'declared' && c.case === 'honest')?.status).toBe('pass');
    } finally {
      await service.close();
      await project.cleanup();
    }
  });
});
