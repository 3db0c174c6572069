import { execFile } from 'node:child_process';
import { chmod, cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readHistory } from '../src/stored/history/read.js';
import { BIN, makeProject, REPO, runCli, runDirFrom } from './helpers/cli.js';

interface Step {
  name?: string;
  run?: string;
  uses?: string;
  env?: Record<string, string>;
  'working-directory'?: string;
}
interface Workflow {
  on: { workflow_call?: { inputs: Record<string, { default: unknown }> } };
  permissions: Record<string, string>;
  jobs: { history: { steps: Step[] } };
}

const text = await readFile(join(REPO, 'examples/github-actions/history.yml'), 'utf8');
const workflow = parse(text) as Workflow;
const steps = workflow.jobs.history.steps;
const sh = promisify(execFile);
const INPUTS: Record<string, string> = { BRANCH: 'driftcheck-history', KEEP: '1' };

describe('examples/github-actions/history.yml', () => {
  it('is a reusable workflow with the permissions it documents', () => {
    expect(Object.keys(workflow.on.workflow_call!.inputs)).toEqual([
      'report-artifact',
      'branch',
      'keep-reports',
    ]);
    expect(workflow.permissions).toEqual({ contents: 'write', pages: 'write', 'id-token': 'write' });
    expect(steps.map((s) => s.uses?.split('@')[0]).filter(Boolean)).toContain('actions/deploy-pages');
  });

  it('uses only history flags that driftcheck documents', async () => {
    const help = (await runCli(['history', '--help'], { cwd: REPO })).stdout;
    const commands = steps
      .flatMap((s) => (s.run ?? '').split('\n'))
      .map((l) => l.trim())
      .filter((l) => l.startsWith('npx driftcheck '));
    expect(commands.map((c) => c.split(/\s+/).slice(2, 4).join(' '))).toEqual([
      'history add',
      'history store/history',
    ]);
    for (const flag of commands.join(' ').match(/--[a-z-]+/g) ?? []) expect(help).toContain(flag);
  });
});

// Its shell steps, run for two nights against a local bare repository standing in for GitHub.
describe('history.yml shell steps', () => {
  let project: Awaited<ReturnType<typeof makeProject>>;
  const origin = () => join(project.dir, 'origin.git');

  beforeAll(async () => {
    project = await makeProject({
      'suites/s.yaml':
        'suite: s\nservice: router\nmodel: openai/gpt-4o-mini\ncases:\n  - id: a\n    prompt: hi\n    expect: [{ non_empty: true }]\n',
    });
    // `npx driftcheck …` runs this checkout's CLI.
    await mkdir(join(project.dir, 'bin'));
    await writeFile(
      join(project.dir, 'bin/npx'),
      `#!/bin/sh\nshift\nexec "${process.execPath}" "${BIN}" "$@"\n`,
    );
    await chmod(join(project.dir, 'bin/npx'), 0o755);
    const git = (...args: string[]) => sh('git', args, { cwd: project.dir });
    await sh('git', ['init', '--quiet', '--bare', '-b', 'main', origin()]);
    await git('init', '--quiet', '-b', 'main');
    await git('add', 'suites');
    await git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '--quiet', '-m', 'suites');
    await git('remote', 'add', 'origin', origin());
    await git('push', '--quiet', 'origin', 'main');
  }, 60_000);
  afterAll(() => project.cleanup());

  async function nightly(): Promise<string> {
    const run = await runCli(['run', '--sim', '--reporter', 'json,html'], { cwd: project.dir });
    const dir = runDirFrom(run, project.dir);
    const work = join(project.dir, 'job');
    await sh('git', ['clone', '--quiet', origin(), work]);
    await cp(dir, join(work, 'merged'), { recursive: true });
    const env = {
      PATH: `${join(project.dir, 'bin')}:${process.env.PATH}`,
      HOME: project.dir,
      GITHUB_RUN_ID: '1',
      GIT_CONFIG_NOSYSTEM: '1',
    };
    for (const step of steps.filter((s) => s.run && !s.run.startsWith('npm '))) {
      // The step's `${{ inputs.… }}` expressions are GitHub's: these values stand in for them.
      const stepEnv = {
        ...env,
        ...Object.fromEntries(Object.keys(step.env ?? {}).map((k) => [k, INPUTS[k]])),
      };
      const cwd = join(work, step['working-directory'] ?? '.');
      await sh('bash', ['-e', '-o', 'pipefail', '-c', step.run!], { cwd, env: stepEnv });
    }
    await sh('rm', ['-rf', work]);
    return dir.split(/[\\/]/).pop()!;
  }

  it('creates the branch on the first night, appends on the next, and prunes old reports', async () => {
    const first = await nightly();
    const second = await nightly();
    const check = join(project.dir, 'check');
    await sh('git', ['clone', '--quiet', '--branch', 'driftcheck-history', origin(), check]);
    const history = await readHistory(join(check, 'history'));
    expect(history.runs.map((r) => r.run_id)).toEqual([first, second]);
    expect(history.runs[1]!.git?.branch).toBe('main');
    expect(await readdir(join(check, 'reports'))).toEqual([second]);
    expect(await readdir(check)).not.toContain('suites');
  }, 120_000);
});
