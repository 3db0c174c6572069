import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFromRepo, makeProject, readReport, type CliResult } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';

interface Candidate {
  label: string;
  exit_code: number;
  changes: { regressed: number; fixed: number; changed: number; same: number };
}

// README, "Providers as candidates": the demo's tool suite on each of its model's providers.
describe('the demo shows its providers apart: --providers deepinfra,together,groq suites/demo/tools.yaml', () => {
  let project: Awaited<ReturnType<typeof makeProject>>;
  let run: CliResult;
  let candidates: Candidate[];
  let runDirs: string[];

  beforeAll(async () => {
    project = await makeProject();
    await copyFromRepo(project.dir, 'suites/demo', 'baselines');
    run = await runMain(
      ['run', '--sim', '--providers', 'deepinfra,together,groq', 'suites/demo/tools.yaml'],
      {
        cwd: project.dir,
      },
    );
    runDirs = [...run.stderr.matchAll(/→ (reports\/\d\S+)/g)].map((m) => join(project.dir, m[1]!));
    const compareJson = /compare: (\S+compare\.json)/.exec(run.stderr)![1]!;
    candidates = JSON.parse(await readFile(join(project.dir, compareJson), 'utf8')).candidates;
  });
  afterAll(() => project.cleanup());

  it('DeepInfra, where tonight moved the tool cases, regresses them; Together matches its baseline; Groq words its text answer its own way', async () => {
    expect(run.code, run.stderr).toBe(1);
    expect(candidates.map((c) => [c.label, c.exit_code, c.changes.regressed])).toEqual([
      ['deepinfra', 1, 2],
      ['together', 0, 0],
      ['groq', 0, 0],
    ]);
    expect(candidates[1]!.changes).toMatchObject({ changed: 0, same: 3 });
    expect(candidates[2]!.changes).toMatchObject({ changed: 1, same: 2 });
    const [deepinfra, together, groq] = await Promise.all(runDirs.map((dir) => readReport(dir)));
    const status = (r: Awaited<ReturnType<typeof readReport>>) =>
      Object.fromEntries(r.cases.map((c) => [c.case, `${c.status} ${c.provider}`]));
    expect(status(deepinfra!)).toEqual({
      'order-status': 'fail DeepInfra',
      refund: 'fail DeepInfra',
      'opening-hours': 'pass DeepInfra',
    });
    expect(status(together!)).toEqual({
      'order-status': 'pass Together',
      refund: 'pass Together',
      'opening-hours': 'pass Together',
    });
    expect(status(groq!)).toEqual({
      'order-status': 'pass Groq',
      refund: 'pass Groq',
      'opening-hours': 'pass Groq',
    });
    // The same calls on Groq; only the text answer is in other words.
    const tools = (r: typeof groq) => r!.cases.map((c) => JSON.stringify(c.tool_use?.distinct ?? null));
    expect(tools(groq)).toEqual(tools(together));
    expect(groq!.cases.find((c) => c.case === 'opening-hours')?.content).not.toBe(
      together!.cases.find((c) => c.case === 'opening-hours')?.content,
    );
  });
});
