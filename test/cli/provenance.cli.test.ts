import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readHistory } from '../../src/stored/history/read.js';
import type { Baseline } from '../../src/stored/baseline/types.js';
import { makeProject, readReport, runDirFrom } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';
import { reportSchemaErrors } from '../helpers/report-schema.js';

const SUITE = `suite: refunds
service: router
model: openai/gpt-4o-mini
cases:
  - id: window
    prompt: "Say exactly: 30 days"
    expect: [{ contains: 30 days }]
  - id: receipt
    prompt: "Say exactly: keep the receipt"
    expect: [{ contains: receipt }]
`;

/** The simulator's services, and a history every run of this project appends to. */
const CONFIG = `services:
  router: { kind: router, base_url: https://openrouter.ai/api/v1, api_key_env: OPENROUTER_API_KEY }
  direct: { kind: direct, base_url: https://api.example.com/v1, api_key_env: DIRECT_API_KEY }
history: { dir: nightly-history }
`;

describe('provenance: candidate, simulator and shard runs never pass for nightly ones', () => {
  let project: Awaited<ReturnType<typeof makeProject>>;
  const cli = (args: string[]) => runMain(args, { cwd: project.dir });
  const baseline = async (): Promise<Baseline> =>
    JSON.parse(await readFile(join(project.dir, 'baselines/refunds.json'), 'utf8'));
  let candidateDir: string;
  let shardDir: string;
  let simDir: string;

  beforeAll(async () => {
    project = await makeProject({ 'suites/refunds.yaml': SUITE, 'driftcheck.config.yaml': CONFIG });
    const first = await cli(['run', '--sim', '--update-baselines', '--reporter', 'json']);
    expect(first.code, first.stderr).toBe(0);
    simDir = runDirFrom(first, project.dir);
    const candidate = await cli([
      'run',
      '--sim',
      '--model',
      'anthropic/claude-sonnet-4.5',
      '--reporter',
      'json',
    ]);
    candidateDir = runDirFrom(candidate, project.dir);
    const shard = await cli(['run', '--sim', '--shard', '1/2', '--reporter', 'json']);
    shardDir = runDirFrom(shard, project.dir);
  }, 60_000);
  afterAll(() => project.cleanup());

  it('records in report.json what each run is', async () => {
    const sim = await readReport(simDir);
    expect(sim.run.provenance).toEqual({
      kind: 'nightly',
      sim: true,
      shard: null,
      complete: true,
      rendered_by: 'run',
    });
    expect(reportSchemaErrors(sim)).toEqual([]);
    expect((await readReport(candidateDir)).run.provenance).toMatchObject({ kind: 'candidate', sim: true });
    expect((await readReport(shardDir)).run.provenance).toMatchObject({
      shard: { index: 1, total: 2 },
      complete: false,
    });
  });

  it('a baseline written from --sim says so', async () => {
    const b = await baseline();
    expect(b.source_run).toBe(simDir.split(/[\\/]/).pop());
    expect(b.provenance).toEqual({ kind: 'nightly', sim: true, shard: null, complete: true, forced: false });
  });

  it.each([
    ['a candidate run', () => candidateDir, /is a candidate run \(--model anthropic\/claude-sonnet-4\.5\)/],
    ['a simulator run', () => simDir, /is a simulator run \(--sim\)/],
    ['one shard alone', () => shardDir, /shard 1\/2 alone \(merge the shards first\)/],
  ])('baseline accept refuses %s (exit 2) and says what it would change', async (_what, dir, why) => {
    const before = await readFile(join(project.dir, 'baselines/refunds.json'), 'utf8');
    const accept = await cli(['baseline', 'accept', dir()]);
    expect(accept.code).toBe(2);
    expect(accept.stderr).toMatch(why);
    expect(accept.stderr).toMatch(/accepting it would change:\n {2}suite refunds: model /);
    expect(accept.stderr).toMatch(/pass --force/);
    expect(await readFile(join(project.dir, 'baselines/refunds.json'), 'utf8')).toBe(before);
  });

  it('names the model change a candidate would make to the baseline', async () => {
    const accept = await cli(['baseline', 'accept', candidateDir]);
    expect(accept.stderr).toContain(
      'suite refunds: model openai/gpt-4o-mini → anthropic/claude-sonnet-4.5; 2 case(s) replaced',
    );
  });

  it('--force accepts it, and the baseline records what the run was', async () => {
    const accept = await cli(['baseline', 'accept', candidateDir, '--force']);
    expect(accept.code, accept.stderr).toBe(0);
    expect(accept.stderr).toMatch(/accepted with --force/);
    const b = await baseline();
    expect(b.model).toBe('anthropic/claude-sonnet-4.5');
    expect(b.provenance).toEqual({ kind: 'candidate', sim: true, shard: null, complete: true, forced: true });
  });

  it('a run with history: in its config appends no simulator, candidate or shard run, and says why', async () => {
    // Every run above had the config's history: none of them is a night (the forced
    // acceptance above noted itself there, as acceptances do).
    const runs = async () => (await readHistory(join(project.dir, 'nightly-history'))).runs;
    expect(await runs()).toEqual([]);
    const run = await cli(['run', '--sim', '--reporter', 'json']);
    expect(run.stderr).toMatch(/history: not appended: this is a simulator run \(--sim\), not a night/);
    expect(run.stderr).toMatch(/--history-force appends it anyway/);
    expect(await runs()).toEqual([]);
  });

  it('--history-force appends it, marked as forced', async () => {
    const run = await cli(['run', '--sim', '--history-force', '--reporter', 'json']);
    expect(run.stderr).toMatch(/^history: nightly-history\/\d{4}-\d{2}\.jsonl$/m);
    const history = await readHistory(join(project.dir, 'nightly-history'));
    expect(history.runs).toHaveLength(1);
    expect(history.runs[0]!.provenance).toEqual({
      candidate: null,
      sim: true,
      shard: null,
      partial: false,
      forced: true,
    });
  });

  it.each([
    [
      'a candidate run',
      () => candidateDir,
      /is a candidate run \(--model anthropic\/claude-sonnet-4\.5\), not a night/,
    ],
    ['one shard alone', () => shardDir, /is shard 1\/2 alone \(merge the shards first\), not a night/],
  ])('history add refuses %s (exit 2) and adds nothing', async (_what, dir, why) => {
    const add = await cli(['history', 'add', 'added', dir()]);
    expect(add.code).toBe(2);
    expect(add.stderr).toMatch(why);
    expect(add.stderr).toMatch(/pass --force/);
    expect(existsSync(join(project.dir, 'added'))).toBe(false);
  });

  it('history add takes a simulator night (its line says so), --force a candidate, and the trend page marks the forced one', async () => {
    const sim = await cli(['history', 'add', 'added', simDir]);
    expect(sim.code, sim.stderr).toBe(0);
    const forced = await cli(['history', 'add', 'added', candidateDir, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    const history = await readHistory(join(project.dir, 'added'));
    expect(history.runs.map((r) => r.provenance)).toEqual([
      { candidate: null, sim: true, shard: null, partial: false, forced: false },
      { candidate: 'anthropic/claude-sonnet-4.5', sim: true, shard: null, partial: false, forced: true },
    ]);
    const page = await cli(['history', 'added', '--out', 'trend.html']);
    expect(page.code, page.stderr).toBe(0);
    const html = await readFile(join(project.dir, 'trend.html'), 'utf8');
    expect(html).toContain(
      '"kind":"forced","text":"forced: not a night (candidate anthropic/claude-sonnet-4.5, simulator)"',
    );
    expect(html.match(/"kind":"forced"/g)).toHaveLength(1);
  });

  it('history DIR --out on a folder that does not exist, or holds no history, is an error (exit 2), not an empty page', async () => {
    const missing = await cli(['history', 'no-such-history', '--out', 'empty.html']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no-such-history: not a history folder/);
    const notHistory = await cli(['history', 'suites', '--out', 'empty.html']);
    expect(notHistory.code).toBe(2);
    expect(existsSync(join(project.dir, 'empty.html'))).toBe(false);
  });
});
