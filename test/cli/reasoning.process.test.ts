import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, readReport, runCli, runDirFrom } from '../helpers/cli.js';
import { reasoningConfig, startReasoningService } from '../helpers/reasoning-service.js';
import { TOOL_ENV } from '../helpers/tool-server.js';

// The built binary against a loopback service whose reasoning model refuses max_tokens and
// thinks 100 tokens before it answers: the cap sent under the name the config gives, and a
// budget spent thinking named as such, with the exit codes a user's CI sees.

let service: Awaited<ReturnType<typeof startReasoningService>>;
beforeAll(async () => {
  service = await startReasoningService();
});
afterAll(() => service.close());

const SUITE = [
  'suite: think',
  'service: direct',
  'model: o4-mini',
  'cases:',
  '  - id: answer',
  '    prompt: What is 2 + 2?',
  '    expect: [{ contains: "4" }]',
  '',
].join('\n');

describe('driftcheck (built) and a reasoning model', () => {
  it('sends max_completion_tokens, never max_tokens, when the config says so; the default max_tokens is refused as the service refuses it', async () => {
    const refused = await makeProject({
      'driftcheck.config.yaml': reasoningConfig(service.url),
      'suites/think.yaml': SUITE,
    });
    const configured = await makeProject({
      'driftcheck.config.yaml': reasoningConfig(service.url, ', max_tokens_param: max_completion_tokens'),
      'suites/think.yaml': SUITE,
    });
    try {
      const bad = await runCli(['run', 'suites'], { cwd: refused.dir, env: TOOL_ENV });
      expect(bad.code).toBe(1);
      expect(bad.stdout.replace(/\n\s+/g, ' ')).toContain(
        "bad_response (HTTP 400): Unsupported parameter: 'max_tokens' is not supported with this model.",
      );
      expect(service.seen.at(-1)!.body).toMatchObject({ max_tokens: 1024 });

      const good = await runCli(['run', 'suites'], { cwd: configured.dir, env: TOOL_ENV });
      expect(good.code, good.stdout + good.stderr).toBe(0);
      const sent = service.seen.at(-1)!.body!;
      expect(sent.max_completion_tokens).toBe(1024);
      expect(sent).not.toHaveProperty('max_tokens');
      const report = await readReport(runDirFrom(good, configured.dir));
      expect(report.cases[0]).toMatchObject({ status: 'pass', reasoning_tokens: 100 });
    } finally {
      await refused.cleanup();
      await configured.cleanup();
    }
  });

  it('a budget spent thinking is reasoning_exhausted, naming the cap to raise, and fails the run', async () => {
    const project = await makeProject({
      'driftcheck.config.yaml': reasoningConfig(service.url, ', max_tokens_param: max_completion_tokens'),
      'suites/think.yaml': SUITE.replace(
        '    prompt: What',
        '    params: { max_completion_tokens: 64 }\n    prompt: What',
      ),
    });
    try {
      const run = await runCli(['run', 'suites'], { cwd: project.dir, env: TOOL_ENV });
      expect(run.code).toBe(1);
      expect(run.stdout).toContain(
        'reasoning_exhausted (HTTP 200): reasoning used all 64 tokens: raise max_completion_tokens',
      );
      expect(service.seen.at(-1)!.body).toMatchObject({ max_completion_tokens: 64 });
      const summary = await readReport(runDirFrom(run, project.dir));
      expect(summary.cases[0]).toMatchObject({
        status: 'error',
        error: { kind: 'reasoning_exhausted' },
        stats: { reasoning_tokens: 64 },
      });
    } finally {
      await project.cleanup();
    }
  });
});
