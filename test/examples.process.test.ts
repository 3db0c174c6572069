import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPO, runCli } from './helpers/cli.js';

interface Workflow {
  on: unknown;
  jobs: Record<
    string,
    {
      steps?: { run?: string; uses?: string; with?: Record<string, unknown> }[];
      needs?: string;
      uses?: string;
    }
  >;
}

describe('examples/github-actions/nightly.yml', () => {
  const text = readFileSync(join(REPO, 'examples/github-actions/nightly.yml'), 'utf8');
  const workflow = parse(text) as Workflow;
  const commands = Object.values(workflow.jobs)
    .flatMap((job) => (job.steps ?? []).map((s) => s.run ?? ''))
    .flatMap((script) => script.split('\n'))
    .map((line) => line.trim())
    .filter((line) => line.startsWith('npx driftcheck '));

  it('is a workflow: a schedule, shards run by the action, a merge job that needs them, the history after it', () => {
    expect(workflow.on).toHaveProperty('schedule');
    const shard = workflow.jobs.shard!.steps!.find((s) => s.uses?.endsWith('/driftcheck@v0'));
    expect(shard?.with).toMatchObject({ shard: 'auto' });
    expect(workflow.jobs.merge?.needs).toBe('shard');
    expect(workflow.jobs.history?.needs).toBe('merge');
    expect(commands.map((c) => c.split(/\s+/)[2])).toEqual(['merge']);
    expect(text).toMatch(/secrets\.OPENROUTER_API_KEY/);
  });

  it('uses only commands and flags that driftcheck documents', async () => {
    const help = (await runCli(['--help'], { cwd: REPO })).stdout;
    for (const command of commands) {
      const [, , name, ...rest] = command.split(/\s+/);
      expect(help).toMatch(new RegExp(`^  ${name} `, 'm'));
      const own = (await runCli([name!, '--help'], { cwd: REPO })).stdout;
      for (const flag of rest.filter((w) => w.startsWith('--'))) expect(own).toContain(flag);
    }
  });
});
