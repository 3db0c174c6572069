import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFromRepo, makeProject } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';

describe('nothing passes that checked less than asked', () => {
  let project: Awaited<ReturnType<typeof makeProject>>;
  beforeAll(async () => {
    project = await makeProject({});
    await copyFromRepo(project.dir, 'suites/demo', 'baselines');
  });
  afterAll(() => project.cleanup());

  it.each([
    [['--filter', 'nomatch'], /--filter 'nomatch' matches no case of 29/],
    // A filter that matches nothing selects nothing for every shard (an empty shard of a
    // selection that has cases runs instead: merge.cli.test.ts).
    [['--shard', '2/3', '--filter', 'nomatch'], /--filter 'nomatch' matches no case of 29/],
  ])('run %j selects nothing: exit 2, saying why', async (args, message) => {
    const run = await runMain(['run', '--sim', 'suites/demo', ...args], { cwd: project.dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
  });

  it('a suite name is a filter too', async () => {
    const run = await runMain(
      ['run', '--sim', 'suites/demo', '--filter', 'direct-demo', '--reporter', 'json'],
      { cwd: project.dir },
    );
    expect(run.stderr).toMatch(/driftcheck: 4 cases from 1 suite/);
  });

  it.each([
    [['--model', '~anthropic/claude-opus-latest']],
    [['--models', 'openai/gpt-4o,~anthropic/claude-opus-latest']],
  ])('an alias from %j is refused without --allow-alias', async (args) => {
    const run = await runMain(['run', '--sim', 'suites/demo', ...args], { cwd: project.dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/~anthropic\/claude-opus-latest is a ~latest alias/);
  });

  it('--require-baselines refuses a suite without a baseline; without it, a warning names the suite', async () => {
    const strict = await runMain(
      ['run', '--sim', 'suites/demo', '--baseline-dir', 'none', '--require-baselines'],
      { cwd: project.dir },
    );
    expect(strict.code).toBe(2);
    expect(strict.stderr).toMatch(
      /--require-baselines: no baseline for agent-demo, direct-demo, streaming-demo, support-demo, table-demo, tools-demo in none/,
    );
    const lax = await runMain(
      ['run', '--sim', 'suites/demo', '--baseline-dir', 'none', '--reporter', 'json'],
      { cwd: project.dir },
    );
    expect(lax.stderr).toMatch(/warning: suite support-demo has no baseline yet/);
    // Only the suites the filter sends are warned about; a selection of nothing only errs.
    const one = await runMain(
      [
        'run',
        '--sim',
        'suites/demo',
        '--baseline-dir',
        'none',
        '--filter',
        'direct-demo',
        '--reporter',
        'json',
      ],
      { cwd: project.dir },
    );
    expect(one.stderr).toMatch(/warning: suite direct-demo has no baseline yet/);
    expect(one.stderr).not.toMatch(/support-demo/);
    const none = await runMain(
      ['run', '--sim', 'suites/demo', '--baseline-dir', 'none', '--filter', 'nomatch'],
      {
        cwd: project.dir,
      },
    );
    expect(none.code).toBe(2);
    expect(none.stderr).not.toMatch(/warning/);
  });

  it.each([[['--model', 'openai/gpt-4o']], [['--models', 'openai/gpt-4o,anthropic/claude-sonnet-4.5']]])(
    '--require-baselines refuses a candidate run %j with nothing to compare it with, before sending',
    async (args) => {
      const common = [
        'run',
        '--sim',
        'suites/demo',
        ...args,
        '--baseline-dir',
        'none',
        '--filter',
        'support-demo',
      ];
      const strict = await runMain([...common, '--require-baselines'], { cwd: project.dir });
      expect(strict.code).toBe(2);
      expect(strict.stderr).toMatch(/--require-baselines: no baseline for support-demo in none/);
      // Refused before any candidate ran: no run folder was made.
      expect(strict.stderr).not.toMatch(/candidate|→ reports\//);
      const lax = await runMain([...common, '--reporter', 'json'], { cwd: project.dir });
      // The demo's planted failures (1), not a refusal (2).
      expect(lax.code).toBe(1);
      // Said once, however many candidates run the suite.
      expect(lax.stderr.match(/warning: suite support-demo has no baseline yet/g)).toHaveLength(1);
    },
  );

  it('--resume of a folder that does not exist says so', async () => {
    const run = await runMain(['run', '--resume', 'reports/nonexistent'], { cwd: project.dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/reports\/nonexistent does not exist/);
  });

  it.each([
    'run',
    'verify',
    'validate',
    'baseline',
    'diff',
    'merge',
    'report',
    'pin',
    'sim',
    'history',
    'init',
    'list',
  ])('%s --help answers with its usage and examples, exit 0', async (command) => {
    const help = await runMain([command, '--help'], { cwd: project.dir });
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(new RegExp(`^Usage: driftcheck ${command}`));
    expect(help.stdout).toMatch(/Examples:/);
  });

  it('suggests the command or flag that was meant', async () => {
    const command = await runMain(['rnu'], { cwd: project.dir });
    expect(command.code).toBe(2);
    expect(command.stderr).toMatch(/did you mean 'run'\?/);
    const flag = await runMain(['run', '--filtr', 'x'], { cwd: project.dir });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/did you mean --filter\?/);
  });

  it.each([
    ['run', '--sim'],
    ['verify', '--sim'],
    ['pin', 'suites/demo/support.yaml', '--sim'],
  ])(
    '%s --service with a typo names the flag, the closest service and the configured ones',
    async (...args) => {
      const run = await runMain([...args, '--service', 'routr'], { cwd: project.dir });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("--service: service 'routr' is not configured (did you mean 'router'?)");
      expect(run.stderr).toMatch(/→ configured services: router, direct/);
    },
  );
});

describe('init and list', () => {
  let project: Awaited<ReturnType<typeof makeProject>>;
  beforeAll(async () => {
    project = await makeProject({});
  });
  afterAll(() => project.cleanup());

  it('init writes a working project, and never overwrites without --force', async () => {
    const init = await runMain(['init', '--workflow'], { cwd: project.dir });
    expect(init.code).toBe(0);
    expect(init.stdout).toMatch(/wrote suites\/example\.yaml/);
    const run = await runMain(['run', '--sim'], { cwd: project.dir });
    expect(run.code).toBe(0);
    const again = await runMain(['init'], { cwd: project.dir });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already exist.*\n.*--force/);
  });

  it('list shows what a run would send, and fails on an empty selection', async () => {
    const list = await runMain(['list'], { cwd: project.dir });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('example · router (router) · openai/gpt-4o-mini · 1 case, 1 sample');
    const json = JSON.parse(
      (await runMain(['list', '--json', '--repeat', '5'], { cwd: project.dir })).stdout,
    );
    expect(json).toMatchObject({ cases: 1, samples: 5 });
    const empty = await runMain(['list', '--filter', 'nothing'], { cwd: project.dir });
    expect(empty.code).toBe(2);
    // The message a run would give: why, and what to do.
    expect(empty.stderr).toMatch(/--filter 'nothing' matches no case of 1 .*\n\s+→ check the pattern/);
    // --repeat is read as run reads it.
    const repeat = await runMain(['list', '--repeat', 'abc'], { cwd: project.dir });
    expect(repeat.code).toBe(2);
    expect(repeat.stderr).toContain("--repeat expects a whole number ≥ 1, got 'abc'");
  });
});

describe('the project, found from a subfolder', () => {
  let project: Awaited<ReturnType<typeof makeProject>>;
  beforeAll(async () => {
    project = await makeProject({
      'driftcheck.config.yaml':
        'services:\n  router: { kind: router, base_url: https://openrouter.ai/api/v1, api_key_env: OPENROUTER_API_KEY }\n  direct: { kind: direct, base_url: https://api.example.com/v1, api_key_env: DIRECT_API_KEY }\nhistory: { dir: nightly-history }\n',
    });
    await copyFromRepo(project.dir, 'suites/demo', 'baselines');
  });
  afterAll(() => project.cleanup());

  it('validate and run from suites/ find the config above, the baselines, and write reports/ at the root', async () => {
    const cwd = join(project.dir, 'suites');
    const validate = await runMain(['validate'], { cwd });
    expect(validate.code, validate.stderr).toBe(0);
    expect(validate.stdout).toMatch(/config .*driftcheck\.config\.yaml/);
    const run = await runMain(['run', '--sim', 'demo', '--reporter', 'json', '--history-force'], { cwd });
    expect(run.code).toBe(1); // the demo's regressions: the baselines were found
    expect(run.stderr).not.toMatch(/has no baseline yet/);
    expect(run.stderr).toMatch(/→ \.\.\/reports\//);
    expect(existsSync(join(cwd, 'reports'))).toBe(false);
    // The config's history: { dir } is the config folder's, wherever the run starts.
    expect(run.stderr).toMatch(/history: \.\.\/nightly-history\/\d{4}-\d{2}\.jsonl/);
    expect(existsSync(join(project.dir, 'nightly-history'))).toBe(true);
    expect(existsSync(join(cwd, 'nightly-history'))).toBe(false);
  });
});
