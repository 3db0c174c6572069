import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Comparison } from '../../src/compare/types.js';
import { type CliResult, makeProject, readReport } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';

type Project = Awaited<ReturnType<typeof makeProject>>;

/**
 * One suite, three nights of it. `chat` has no expectations and changes provider (a
 * regression on a nightly run, whose checks still pass); `coin` passes 0 of 10 samples in
 * the reference and a few tonight (its pass rate is higher, yet it still fails: not fixed);
 * `sum` passes throughout, or fails when `sumFails`.
 */
function suite(night: { provider: string; coinRate: number; sumFails?: boolean }): string {
  return [
    'suite: words',
    'service: router',
    'model: meta-llama/llama-3.3-70b-instruct',
    'cases:',
    '  - id: chat',
    '    prompt: "Say hello."',
    `    sim: { provider: ${night.provider} }`,
    '  - id: coin',
    '    prompt: "Heads or tails?"',
    '    expect: [{ equals: "heads" }]',
    `    sim: { reply: "heads", pass_rate: ${night.coinRate}, fail_reply: "tails" }`,
    '  - id: sum',
    '    prompt: "What is 2 + 2?"',
    '    expect: [{ contains: "4" }]',
    ...(night.sumFails ? ['    sim: { reply: "five" }'] : []),
    '',
  ].join('\n');
}

const runDirOf = (result: CliResult, cwd: string) =>
  join(cwd, /report: (\S+)\/report\.json/.exec(result.stderr)![1]!);

/** A run folder as a kill -9 leaves it: no report files, no end record in its journal. */
async function killedCopy(runDir: string, to: string): Promise<void> {
  await cp(runDir, to, { recursive: true });
  for (const f of ['report.json', 'report.html', 'junit.xml', 'summary.md'])
    await rm(join(to, f), { force: true });
  const lines = (await readFile(join(to, 'results.jsonl'), 'utf8')).trimEnd().split('\n');
  expect(JSON.parse(lines.at(-1)!).type).toBe('end');
  await writeFile(join(to, 'results.jsonl'), `${lines.slice(0, -1).join('\n')}\n`);
}

describe('one meaning of each word, and every non-zero exit says why (CLI)', () => {
  let project: Project;
  let reference: string;
  let tonight: string;
  let night: CliResult;
  const env = { DRIFTCHECK_SIM_SEED: '7' };
  const write = (text: string) => writeFile(join(project.dir, 'suites/words.yaml'), text);
  const run = async (args: string[]) => {
    const result = await runMain(['run', '--sim', ...args], { cwd: project.dir, env });
    return { result, dir: runDirOf(result, project.dir) };
  };

  beforeAll(async () => {
    project = await makeProject({ 'suites/words.yaml': suite({ provider: 'DeepInfra', coinRate: 0 }) });
    const first = await run(['--repeat', '10', '--update-baselines']);
    expect(first.result.code, first.result.stderr).toBe(1); // coin fails every sample
    reference = first.dir;
    await write(suite({ provider: 'Together', coinRate: 0.3 }));
    const second = await run(['--repeat', '10']);
    night = second.result;
    tonight = second.dir;
  });
  afterAll(() => project.cleanup());

  it('prints a regressed case whose checks pass as "pass (regressed)" in every view', async () => {
    const report = await readReport(tonight);
    const coin = report.cases.find((c) => c.case === 'coin')!;
    // The scenario: coin's pass rate rose but it still fails; chat regressed with no expectation.
    expect(coin.samples.passed).toBeGreaterThan(0);
    expect(coin.status).toBe('fail');
    expect(report.cases.find((c) => c.case === 'chat')!.status).toBe('pass');
    expect(night.code).toBe(1);
    expect(night.stdout).toMatch(/^✗ words\/chat pass \(regressed\) 10\/10 · /m);
    expect(night.stdout).not.toMatch(/^✗ words\/chat pass 10/m);
    expect(await readFile(join(tonight, 'summary.md'), 'utf8')).toMatch(
      /\| `words\/chat` \| pass \(regressed\) 10\/10 \|/,
    );
    expect(await readFile(join(tonight, 'junit.xml'), 'utf8')).toMatch(
      /case: words\/chat\nstatus: pass \(regressed\)/,
    );
    // Its exit is explained on stderr in the same words the counts use.
    expect(night.stderr).toMatch(/^driftcheck run: exit 1 — 1 regressed, 1 failed of 3 cases$/m);
  });

  it('never calls a higher pass rate a fix: the table, compare.md, compare.json and the verdict line agree', async () => {
    const compared = await runMain(['compare', reference, tonight, '--out', 'cmp'], { cwd: project.dir });
    // Nothing regressed against the reference run: exit 0, and no exit line.
    expect(compared.code, compared.stderr).toBe(0);
    expect(compared.stderr).not.toMatch(/exit \d/);
    const json = JSON.parse(await readFile(join(project.dir, 'cmp/compare.json'), 'utf8')) as Comparison;
    const candidate = json.candidates[0]!;
    // coin 0/10 → k/10 (still failing): the paired test counts it higher; no case is fixed.
    expect(candidate.changes.fixed).toBe(0);
    expect(candidate.verdict.fixes).toBe(1);
    expect(candidate.verdict.regressions).toBe(0);
    expect(candidate.verdict.line).toMatch(
      /^no significant regression: pass rate lower in 0 and higher in 1 of 3 cases \(/,
    );
    expect(compared.stdout).toMatch(/│ regressed · fixed · changed\s+│ 0 · 0 · \d+\s+│/);
    expect(compared.stdout).toContain(`: ${candidate.verdict.line}\n`);
    const md = await readFile(join(project.dir, 'cmp/compare.md'), 'utf8');
    expect(md).toMatch(/\| regressed · fixed · changed \| 0 · 0 · \d+ \|/);
    expect(md).toContain('pass rate lower in 0 and higher in 1 of 3 cases');
    // Neither view has a second meaning of "fix".
    for (const text of [compared.stdout, md]) expect(text).not.toMatch(/\bfix(es)?\b/);
  });

  it('lists a case missing from a run without failing it, and compare and diff of the same runs agree', async () => {
    await write(suite({ provider: 'Together', coinRate: 0.3 }));
    const partial = await run(['--filter', 'words/sum']);
    expect(partial.result.code, partial.result.stderr).toBe(0);
    const compared = await runMain(['compare', reference, partial.dir, '--out', 'cmp-missing'], {
      cwd: project.dir,
    });
    const diffed = await runMain(['diff', reference, partial.dir], { cwd: project.dir });
    expect(compared.code, compared.stderr).toBe(0);
    expect(diffed.code, diffed.stderr).toBe(0);
    expect(compared.stdout).toMatch(/: 2 case\(s\) missing from its run, not compared$/m);
    expect(compared.stdout).toMatch(/│ not run · missing · skipped\s+│ 0 · 2 · 0\s+│/);
    expect(diffed.stdout).toMatch(/^2 case\(s\) of \S+ missing from \S+, not compared$/m);
    const json = JSON.parse(
      await readFile(join(project.dir, 'cmp-missing/compare.json'), 'utf8'),
    ) as Comparison;
    expect(json.cases.filter((r) => r.cells[0]!.change === 'missing').map((r) => r.case)).toEqual([
      'chat',
      'coin',
    ]);
  });

  it('names the reason of a non-zero compare and diff on stderr, and both exit 1 for a regression', async () => {
    await write(suite({ provider: 'DeepInfra', coinRate: 0, sumFails: true }));
    const broken = await run(['--repeat', '10']);
    const compared = await runMain(['compare', reference, broken.dir, '--out', 'cmp-broken'], {
      cwd: project.dir,
    });
    const diffed = await runMain(['diff', reference, broken.dir, '--reporter', 'json', '--out', 'diff-out'], {
      cwd: project.dir,
    });
    expect(compared.code).toBe(1);
    expect(compared.stderr).toMatch(/^driftcheck compare: exit 1 — \S+: 1 regressed$/m);
    expect(diffed.code).toBe(1);
    expect(diffed.stderr).toMatch(
      /^driftcheck diff: exit 1 — 1 of 3 case\(s\) regressed in \S+ against \S+(; 1 failing suite finding\(s\))?$/m,
    );
    // recheck of that run exits by its verdict, and says it.
    const rechecked = await runMain(['recheck', broken.dir, '--reporter', 'json'], { cwd: project.dir });
    expect(rechecked.code).toBe(1);
    expect(rechecked.stderr).toMatch(
      /^driftcheck recheck: exit 1 — 1 regressed, 2 failed of 3 cases(; .*)?$/m,
    );
    // merge of its shards: the verdict of the unsharded run, and its reason.
    const shards = [
      await run(['--repeat', '10', '--shard', '1/2']),
      await run(['--repeat', '10', '--shard', '2/2']),
    ];
    const merged = await runMain(
      ['merge', ...shards.map((r) => r.dir), '--out', 'merged', '--reporter', 'json'],
      {
        cwd: project.dir,
      },
    );
    expect(merged.code, merged.stderr).toBe(1);
    expect(merged.stderr).toMatch(/^driftcheck merge: exit 1 — 1 regressed, 2 failed of 3 cases(; .*)?$/m);
  });

  it('report of a killed run: the recorded 137, its own exit, and why — the same on stdout and stderr', async () => {
    const failing = join(project.dir, 'killed-failing');
    await killedCopy(tonight, failing);
    const one = await runMain(['report', failing], { cwd: project.dir });
    expect((await readReport(failing)).run).toMatchObject({ status: 'interrupted', exit_code: 137 });
    expect(one.code).toBe(1);
    expect(one.stdout).toMatch(/KILLED — no end record [^]*?\(recorded exit\s+137\)/);
    expect(one.stdout).toMatch(/driftcheck report exits 1: a case the run finished fails/);
    expect(one.stdout).not.toMatch(/\(exit 137\)|PASS/);
    expect(one.stdout).not.toMatch(/\(exit 137\)/);
    expect(one.stderr).toMatch(
      /^driftcheck report: exit 1 — the run was killed \(exit_code 137 in report\.json\) and what it finished fails: 1 regressed, 1 failed of 3 cases$/m,
    );

    await write(suite({ provider: 'DeepInfra', coinRate: 0 }));
    const passing = await run(['--filter', 'words/sum']);
    expect(passing.result.code, passing.result.stderr).toBe(0);
    const clean = join(project.dir, 'killed-clean');
    await killedCopy(passing.dir, clean);
    const three = await runMain(['report', clean], { cwd: project.dir });
    expect(three.code).toBe(3);
    expect(three.stdout).toMatch(/\(recorded exit\s+137\)/);
    expect(three.stdout).toMatch(
      /driftcheck report exits 3: the run is unfinished and no case it finished fails/,
    );
    expect(three.stderr).toMatch(
      /^driftcheck report: exit 3 — the run was killed \(exit_code 137 in report\.json\): no case it finished fails, and 0 of 1 case not run; an unfinished run is not a pass, --resume finishes it$/m,
    );
  });
});
