import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Baseline } from '../../src/stored/baseline/types.js';
import { makeProject, readReport, type CliResult } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';

type Project = Awaited<ReturnType<typeof makeProject>>;

// The simulator's models word a sum differently: openai/gpt-4o-mini and openai/gpt-4o say
// "42", anthropic/claude-sonnet-4.5 says "12 + 30 = 42.". Twelve cases want the bare number
// (Claude fails every one), and one wants the worked sum (only Claude passes it: the
// baseline, written by gpt-4o-mini, fails it).
const SUMS = Array.from({ length: 12 }, (_, i) => [10 + i, 20 + 3 * i] as const);
const SUITE = [
  'suite: sums',
  'service: router',
  'model: openai/gpt-4o-mini',
  'cases:',
  ...SUMS.flatMap(([a, b]) => [
    `  - id: sum-${a}-${b}`,
    `    prompt: "What is ${a} + ${b}?"`,
    `    expect: [{ equals: "${a + b}" }]`,
  ]),
  '  - id: worked',
  '    prompt: "What is 2 + 2?"',
  '    expect: [{ contains: " = " }]',
  '',
].join('\n');

function runDirsFrom(result: CliResult, cwd: string): string[] {
  return [...result.stderr.matchAll(/report: (.+)\/report\.json/g)].map((m) => join(cwd, m[1]!));
}

describe('--models prints a paired verdict per candidate against the current baseline', () => {
  let project: Project;
  let run: CliResult;

  beforeAll(async () => {
    project = await makeProject({ 'suites/sums.yaml': SUITE });
    const first = await runMain(['run', '--sim', '--update-baselines'], { cwd: project.dir });
    // The worked-sum case fails under the baseline's model: the baseline records it failing.
    expect(first.code, first.stderr).toBe(1);
    run = await runMain(['run', '--sim', '--models', 'anthropic/claude-sonnet-4.5,openai/gpt-4o'], {
      cwd: project.dir,
    });
  });
  afterAll(() => project.cleanup());

  it('calls the clearly worse candidate significantly worse (McNemar, Holm over 2) and the other not', async () => {
    expect(run.code, run.stderr).toBe(1);
    // Pass rate lower in 12 cases and higher in 1: mid-p P(X > 12 | 13 fair coins) + ½ P(X = 12) = 7.5/8192, times 2 candidates (Holm).
    expect(run.stdout).toMatch(
      /^anthropic\/claude-sonnet-4\.5: significantly worse: pass rate lower in 12 and higher in 1 of 13 cases \(McNemar p = 0\.002, Holm over 2 candidates\)(; .*)?$/m,
    );
    expect(run.stdout).toMatch(
      /^openai\/gpt-4o: no significant regression: pass rate lower in 0 and higher in 0 of 13 cases \(McNemar p = 1\.000, Holm over 2 candidates\)(; .*)?$/m,
    );
    // Under the table, one line each, in the candidates' order.
    const table = run.stdout.lastIndexOf('└');
    const claude = run.stdout.indexOf('anthropic/claude-sonnet-4.5: significantly worse');
    const gpt = run.stdout.indexOf('openai/gpt-4o: no significant regression');
    expect(table).toBeLessThan(claude);
    expect(claude).toBeLessThan(gpt);
  });

  it('states cost and p95 latency against the baseline files, from what the reports and baselines hold', async () => {
    const [claude] = await Promise.all(runDirsFrom(run, project.dir).map(readReport));
    expect(claude!.run.candidate_model).toBe('anthropic/claude-sonnet-4.5');
    const baseline = JSON.parse(await readFile(join(project.dir, 'baselines/sums.json'), 'utf8')) as Baseline;
    // Cost per sample over the cases, candidate against baseline; p95 over every answer.
    const cost = (list: number[]) => list.reduce((a, b) => a + b, 0);
    const ratio =
      cost(claude!.cases.map((c) => c.stats.cost! / c.stats.with_cost)) /
      cost(Object.values(baseline.cases).map((c) => c.usage!.cost!));
    const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(0.95 * values.length) - 1]!;
    const latency =
      p95(claude!.cases.flatMap((c) => c.stats.answered.latency_ms!.sample)) -
      p95(Object.values(baseline.cases).flatMap((c) => c.latency_ms!.sample));
    expect(ratio).toBeGreaterThan(10);
    const sign = latency > 0 ? '+' : latency < 0 ? '-' : '±';
    expect(run.stdout).toContain(
      `anthropic/claude-sonnet-4.5: significantly worse: pass rate lower in 12 and higher in 1 of 13 cases (McNemar p = 0.002, Holm over 2 candidates); ${Math.round(ratio)}× the cost; p95 latency ${sign}${Math.abs(Math.round(latency))} ms\n`,
    );
  });
});

describe('--models with repeats uses the sign test over cases', () => {
  let project: Project;

  beforeAll(async () => {
    project = await makeProject({ 'suites/sums.yaml': SUITE });
    // One-sample baselines, as --update-baselines without --repeat writes them.
    expect((await runMain(['run', '--sim', '--update-baselines'], { cwd: project.dir })).code).toBe(1);
  });
  afterAll(() => project.cleanup());

  it('counts each case once however many samples it has, with the unequal counts accounted for', async () => {
    const run = await runMain(
      ['run', '--sim', '--repeat', '3', '--models', 'anthropic/claude-sonnet-4.5,openai/gpt-4o'],
      { cwd: project.dir },
    );
    expect(run.stdout).toMatch(
      /^anthropic\/claude-sonnet-4\.5: significantly worse: pass rate lower in 12 and higher in 1 of 13 cases \(sign test p = 1\.7e-6, Holm over 2 candidates\)/m,
    );
    expect(run.stdout).toMatch(
      /^openai\/gpt-4o: no significant regression: pass rate lower in 0 and higher in 0 of 13 cases \(sign test p = 1\.000/m,
    );
  });
});
