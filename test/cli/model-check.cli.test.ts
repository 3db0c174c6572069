import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, readReport, runDirFrom } from '../helpers/cli.js';
import { runMain, startSim } from '../helpers/main.js';

const KEY = `sk-or-v1-${'cd34'.repeat(16)}`;

/** Twenty cases: a wrong model must be caught before them, or stop at the first. */
const suite = (model: string) => `suite: typo
service: router
model: ${model}
cases:
${Array.from({ length: 20 }, (_, i) => `  - id: c${i}\n    prompt: "Say exactly: ok ${i}"\n    expect: [{ contains: ok }]`).join('\n')}
`;

describe('a model the service does not have', () => {
  let sim: Awaited<ReturnType<typeof startSim>>;
  let project: Awaited<ReturnType<typeof makeProject>>;
  const run = (args: string[]) => runMain(args, { cwd: project.dir, env: { OPENROUTER_API_KEY: KEY } });

  beforeAll(async () => {
    sim = await startSim();
    project = await makeProject({
      'suites/typo.yaml': suite('openai/gpt-4o-mini'),
      'suites/mistyped/typo.yaml': suite('openai/gpt-4o-mimi'),
      'driftcheck.config.yaml': `services:\n  router: { kind: router, base_url: ${sim.url}/api/v1, api_key_env: OPENROUTER_API_KEY, retries: 0 }\n`,
    });
  });
  afterAll(async () => {
    await project.cleanup();
    await sim.stop();
  });

  it('--model openai/gpt-5-typo on a router suite: exit 2 before anything is sent, with the models it may have meant', async () => {
    const before = (await sim.stats()).completions;
    const typo = await run(['run', 'suites/typo.yaml', '--model', 'openai/gpt-5-typo']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(
      /--model: nothing was sent\nopenai\/gpt-5-typo fits no suite of the selection:\n/,
    );
    expect(typo.stderr).toMatch(
      /the router service router does not list the model in its GET \/models\n {2}→ /,
    );
    const close = await run(['run', 'suites/typo.yaml', '--model', 'openai/gpt-4o-mimi']);
    expect(close.code).toBe(2);
    expect(close.stderr).toContain('→ did you mean openai/gpt-4o-mini?');
    const several = await run([
      'run',
      'suites/typo.yaml',
      '--models',
      'openai/gpt-4o,anthropic/claude-sonet-4.5',
    ]);
    expect(several.code).toBe(2);
    expect(several.stderr).toMatch(
      /--models: nothing was sent\nanthropic\/claude-sonet-4\.5 fits no suite of the selection:\n.*\n {2}→ did you mean anthropic\/claude-sonnet-4\.5\?/,
    );
    // The candidate that fits is not named: only what is wrong is.
    expect(several.stderr).not.toMatch(/openai\/gpt-4o fits/);
    // Nothing reached the service, and no run folder was made.
    expect((await sim.stats()).completions).toBe(before);
    expect(`${typo.stderr}${close.stderr}${several.stderr}`).not.toMatch(/report: /);
  });

  it('a known candidate runs', async () => {
    const ok = await run(['run', 'suites/typo.yaml', '--model', 'openai/gpt-4o', '--reporter', 'json']);
    expect(ok.code, ok.stderr).toBe(0);
  });

  it('a suite whose model: the service rejects stops that model at its first invalid_model, and exits 2 at the end', async () => {
    const before = (await sim.stats()).completions;
    const result = await run(['run', 'suites/mistyped', '--concurrency', '1', '--reporter', 'json,console']);
    expect(result.code).toBe(2);
    const report = await readReport(runDirFrom(result, project.dir));
    expect(report.run.stop_reason).toBeNull();
    expect(report.run.model_stops).toMatchObject([
      {
        service: 'router',
        model: 'openai/gpt-4o-mimi',
        pinned: ['suites/mistyped/typo.yaml:3:8'],
        hint: 'did you mean openai/gpt-4o-mini?',
        error: { kind: 'invalid_model' },
      },
    ]);
    expect(report.run.exit_code).toBe(2);
    expect(report.summary.not_run).toBe(19);
    // One answer told the story; the other nineteen were never sent.
    expect((await sim.stats()).completions - before).toBe(1);
    expect(result.stdout).toMatch(/ERROR — a model the service does not have was sent nothing more/);
    expect(result.stderr).toMatch(
      /stopped model openai\/gpt-4o-mimi: service 'router' answered that it does not have it/,
    );
    expect(result.stderr).toContain('→ did you mean openai/gpt-4o-mini?');
    // The base URL answered: nothing says to check it.
    expect(result.stderr).not.toMatch(/base_url/);
  });
});
