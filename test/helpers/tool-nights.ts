import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Report } from '../../src/stored/report/types.js';
import { copyFromRepo, makeProject, readReport, REPO, runCli, runDirFrom } from './cli.js';

/** The simulator's coins are seeded so the nights (and their valid-call counts) are reproducible. */
export const TOOL_NIGHTS_ENV = { DRIFTCHECK_SIM_SEED: '7' };

/**
 * A suite of one single request (no tools, no conversation) to run beside a tool or agent
 * suite: its history lines and charts must not change.
 */
export const PLAIN_SUITE = [
  'suite: plain',
  'service: router',
  'model: openai/gpt-4o-mini',
  'cases:',
  '  - id: greeting',
  '    prompt: "Say exactly: hello there"',
  '    expect: [{ contains: hello }]',
  '',
].join('\n');

export interface ToolNights {
  dir: string;
  cleanup: () => Promise<void>;
  /** Each night's report.json, oldest first. */
  reports: Report[];
}

/**
 * Three nights of the demo's tool suite (suites/demo/tools.yaml) and a plain suite on the
 * simulator, each appended to `history/` as a nightly job does: night 1 behaves (the suite
 * without its `sim:` lines: tools routed to Together, every call valid); nights 2 and 3 are
 * the demo's overnight misbehaviour (the router moved the tool cases to DeepInfra, whose
 * calls miss the schema). Nights 1 and 2 go in with `history add`, night 3 with
 * `run --history` (a simulator night is appended only when forced), so both writers are used.
 */
export async function toolNights(): Promise<ToolNights> {
  const project = await makeProject({ 'suites/plain.yaml': PLAIN_SUITE });
  await copyFromRepo(project.dir, 'baselines');
  const shipped = await readFile(join(REPO, 'suites/demo/tools.yaml'), 'utf8');
  const behaving = shipped.replace(/\n\s+sim: \{[^}]*\}/g, '');
  expect(behaving).not.toBe(shipped);
  const reports: Report[] = [];
  const env = TOOL_NIGHTS_ENV;
  for (const [night, suite] of [behaving, shipped, shipped].entries()) {
    await writeFile(join(project.dir, 'suites/tools.yaml'), suite);
    const last = night === 2;
    const run = await runCli(
      [
        'run',
        '--sim',
        'suites',
        '--reporter',
        'json',
        ...(last ? ['--history', 'history', '--history-force'] : []),
      ],
      { cwd: project.dir, env },
    );
    expect(run.code, run.stderr).toBe(night === 0 ? 0 : 1);
    const dir = runDirFrom(run, project.dir);
    if (!last) {
      const add = await runCli(['history', 'add', 'history', dir], { cwd: project.dir, env });
      expect(add.code, add.stderr).toBe(0);
    }
    reports.push(await readReport(dir));
  }
  return { ...project, reports };
}

/** Every line of the history's month files, parsed, in file order. */
export async function historyLines(dir: string): Promise<Record<string, unknown>[]> {
  const months = (await readdir(join(dir, 'history'))).filter((f) => f.endsWith('.jsonl')).sort();
  const lines: Record<string, unknown>[] = [];
  for (const month of months) {
    const text = await readFile(join(dir, 'history', month), 'utf8');
    for (const line of text.split('\n')) if (line.trim()) lines.push(JSON.parse(line));
  }
  return lines;
}

/** Per night of the history (its `run` line), `suite/case` → that case's stored line. */
export async function storedByNight(dir: string): Promise<Map<string, Record<string, unknown>>[]> {
  const nights: Map<string, Record<string, unknown>>[] = [];
  for (const line of await historyLines(dir)) {
    if (line.t === 'run') nights.push(new Map());
    else if (line.t === undefined) nights.at(-1)!.set(`${String(line.s)}/${String(line.c)}`, line);
  }
  return nights;
}
