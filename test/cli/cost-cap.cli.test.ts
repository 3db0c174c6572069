import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatUsd } from '../../src/util/numbers.js';
import type { SampleResult } from '../../src/stored/journal/records.js';
import { makeProject, readReport, readSamples, runDirFrom, type SimStats } from '../helpers/cli.js';
import { runMain, startSim } from '../helpers/main.js';

const ROUTER_KEY = `sk-or-v1-${'c0ffee12'.repeat(8)}`;
const env = { OPENROUTER_API_KEY: ROUTER_KEY };
const CASES = 20;

function config(url: string, extra = ''): string {
  return `services:\n  router: { kind: router, base_url: ${url}/api/v1, api_key_env: OPENROUTER_API_KEY }\n${extra}`;
}

/** A router suite of `n` cases; with `judge`, each case also asks a judge on the router. */
function suite(n: number, options: { judge?: boolean; name?: string } = {}): string {
  const judge = options.judge
    ? ', { judge: { model: openai/gpt-4o-mini, rubric: "mentions the case" } }'
    : '';
  const cases = Array.from(
    { length: n },
    (_, i) => `  - id: c${i}\n    prompt: "Say exactly: case ${i}"\n    expect: [{ contains: case }${judge}]`,
  );
  return `suite: ${options.name ?? 'spend'}\nservice: router\nmodel: openai/gpt-4o-mini\ncases:\n${cases.join('\n')}\n`;
}

/** What one journaled sample cost: its answer and its judge calls (every router answer reports usage.cost). */
const answerCost = (s: SampleResult): number => s.usage?.cost ?? 0;
const judgeCost = (s: SampleResult): number =>
  s.checks.reduce((sum, c) => sum + (c.judge?.usage?.cost ?? 0), 0);

describe('--max-cost: a cost cap of the user own', () => {
  let sim: Awaited<ReturnType<typeof startSim>>;
  const cleanups: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    sim = await startSim();
  });
  afterAll(async () => {
    for (const c of cleanups.splice(0)) await c();
    await sim.stop();
  });
  /** Requests the simulator received for the suite (judge calls included) since `before`. */
  const sentSince = async (before: SimStats, suiteName: string): Promise<number> => {
    const now = await sim.stats();
    const count = (s: SimStats) =>
      Object.entries(s.byCase)
        .filter(([key]) => key.startsWith(`${suiteName}/`))
        .reduce((n, [, v]) => n + v, 0);
    return count(now) - count(before);
  };
  const project = async (files: Record<string, string>) => {
    const p = await makeProject({ 'driftcheck.config.yaml': config(sim.url), ...files });
    cleanups.push(p.cleanup);
    return p;
  };

  it('refuses a run whose estimate exceeds the cap: exit 2, nothing sent, the estimate and the cap named', async () => {
    // No baseline: each case is estimated from its prompt and the router's max_tokens (512)
    // at the router's listed price, an upper bound of about $0.0003 a case: $0.006 for 20.
    const p = await project({ 'suites/spend.yaml': suite(CASES, { name: 'refused' }) });
    const before = await sim.stats();
    const run = await runMain(['run', '--max-cost', '0.001'], { cwd: p.dir, env });
    expect(run.code).toBe(2);
    expect(await sentSince(before, 'refused')).toBe(0);
    expect((await sim.stats()).completions).toBe(before.completions);
    expect(run.stderr).toMatch(
      /--max-cost \$0\.001: the estimate for the run is \$0\.00\d+, over the cap; nothing was sent/,
    );
    expect(run.stderr).toContain(`${CASES} cases from the prompt's length and max_tokens (an upper bound)`);
    expect(run.stderr).toContain('--ignore-estimate');
    // Nothing written: no run folder a later --resume could pick up.
    expect(existsSync(join(p.dir, 'reports'))).toBe(false);
  });

  it('--ignore-estimate runs it; the cap pauses it mid-run (exit 3); --resume stops again at the same cap and completes with a larger one', async () => {
    const p = await project({ 'suites/spend.yaml': suite(CASES, { name: 'paused' }) });
    const cap = 0.00002;
    const concurrency = 2;
    const before = await sim.stats();
    const first = await runMain(
      ['run', '--max-cost', String(cap), '--ignore-estimate', '--concurrency', String(concurrency)],
      { cwd: p.dir, env },
    );
    expect(first.code).toBe(3);
    expect(first.stderr).toMatch(/estimated cost \$0\.00\d+ for 20 samples .* · --max-cost \$0\.00002/);
    const runDir = runDirFrom(first, p.dir);
    const samples = await readSamples(runDir);
    const sent = await sentSince(before, 'paused');
    // Every journaled answer was sent once; the cheapest bounds how many fit under the cap.
    expect(samples.length).toBe(sent);
    const cheapest = Math.min(...samples.map(answerCost));
    expect(cheapest).toBeGreaterThan(0);
    expect(sent).toBeLessThanOrEqual(Math.ceil(cap / cheapest) + concurrency);
    expect(sent).toBeLessThan(CASES);
    const spent = samples.reduce((sum, s) => sum + answerCost(s), 0);
    expect(spent).toBeGreaterThanOrEqual(cap);

    const paused = await readReport(runDir);
    expect(paused.run.status).toBe('paused');
    expect(paused.run.exit_code).toBe(3);
    expect(paused.run.stop_reason).toMatchObject({
      kind: 'budget_exceeded',
      code: 'max_cost',
      http_status: null,
    });
    // What was spent in the end, the requests in flight at the cap included: the journal's sum.
    expect(paused.run.stop_reason?.message).toBe(`spent ${formatUsd(spent)} of --max-cost $0.00002`);
    expect(paused.summary.not_run).toBe(CASES - sent);
    expect(first.stderr).toContain(
      `paused: ${paused.run.stop_reason!.message}; ${CASES - sent} cases not run`,
    );
    expect(first.stderr).toContain('Resume with a larger cap');

    // The same cap again: what the journal says was spent counts, so nothing more is sent.
    const again = await runMain(['run', '--resume'], { cwd: p.dir, env });
    expect(again.code).toBe(3);
    expect(runDirFrom(again, p.dir)).toBe(runDir);
    expect(await sentSince(before, 'paused')).toBe(sent);
    expect(again.stderr).toMatch(/spent \$0\.0000\d+ so far; what is left: estimated cost/);
    expect((await readReport(runDir)).run.stop_reason?.message).toBe(paused.run.stop_reason?.message);

    // A larger cap: the rest is sent, once each, and the run completes.
    const done = await runMain(['run', '--resume', '--max-cost', '1'], { cwd: p.dir, env });
    expect(done.code).toBe(0);
    expect(await sentSince(before, 'paused')).toBe(CASES);
    const byCase = (await sim.stats()).byCase;
    for (let i = 0; i < CASES; i++) expect(byCase[`paused/c${i}#0`]).toBe(1);
    const report = await readReport(runDir);
    expect(report.run.status).toBe('completed');
    expect(report.summary).toMatchObject({ cases: CASES, passed: CASES, not_run: 0 });
  });

  it('honours max_cost in the config: estimated from the baseline, paused when tonight costs more', async () => {
    const p = await project({ 'suites/spend.yaml': suite(CASES, { name: 'configured' }) });
    const baseline = await runMain(['run', '--update-baselines', '--reporter', 'json'], { cwd: p.dir, env });
    expect(baseline.code).toBe(0);
    // The baseline was recorded when answers cost a tenth of tonight's.
    const file = join(p.dir, 'baselines/configured.json');
    const recorded = JSON.parse(await readFile(file, 'utf8'));
    let total = 0;
    for (const c of Object.values(recorded.cases) as { usage: { cost: number } }[]) {
      total += c.usage.cost;
      c.usage.cost /= 10;
    }
    await writeFile(file, JSON.stringify(recorded, null, 2));
    // A cap above the baseline's estimate (a tenth of the total), below what the run spends.
    const cap = Number((total / 2).toPrecision(2));
    await writeFile(join(p.dir, 'driftcheck.config.yaml'), config(sim.url, `max_cost: ${cap}\n`));

    const before = await sim.stats();
    const run = await runMain(['run', '--concurrency', '1'], { cwd: p.dir, env });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(`${CASES} cases from their baseline's cost`);
    expect(run.stderr).toContain(`· max_cost $${cap}`);
    const report = await readReport(runDirFrom(run, p.dir));
    expect(report.run.stop_reason?.message).toMatch(new RegExp(`of max_cost \\$${cap}$`));
    const sent = await sentSince(before, 'configured');
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThan(CASES);

    // --max-cost on the command line overrides the config's.
    const over = await runMain(['run', '--max-cost', '1', '--reporter', 'json'], { cwd: p.dir, env });
    expect(over.code).toBe(0);
  });

  it('counts judge calls: a cap the answers alone stay under pauses the run once their judges reach it', async () => {
    const p = await project({ 'suites/spend.yaml': suite(10, { judge: true, name: 'judged' }) });
    // What the answers and their judges cost, measured on an uncapped run (the simulator answers deterministically).
    const measured = await runMain(['run', '--reporter', 'json'], { cwd: p.dir, env });
    expect(measured.code).toBe(0);
    const samples = await readSamples(runDirFrom(measured, p.dir));
    const answers = samples.reduce((sum, s) => sum + answerCost(s), 0);
    const judges = samples.reduce((sum, s) => sum + judgeCost(s), 0);
    expect(judges).toBeGreaterThan(0);
    const cap = Number((answers + judges / 2).toPrecision(3));
    expect(cap).toBeGreaterThan(answers);

    const capped = await runMain(
      ['run', '--max-cost', String(cap), '--ignore-estimate', '--concurrency', '1', '--reporter', 'json'],
      { cwd: p.dir, env },
    );
    expect(capped.code).toBe(3);
    expect(capped.stderr).toMatch(/10 judge calls/);
    const runDir = runDirFrom(capped, p.dir);
    const report = await readReport(runDir);
    expect(report.run.stop_reason?.code).toBe('max_cost');
    const journaled = await readSamples(runDir);
    const spent = journaled.reduce((sum, s) => sum + answerCost(s) + judgeCost(s), 0);
    expect(spent).toBeGreaterThanOrEqual(cap);
    expect(journaled.reduce((sum, s) => sum + answerCost(s), 0)).toBeLessThan(cap);
    expect(report.summary.not_run).toBeGreaterThan(0);
  });

  it('--models: the cap holds over every candidate, estimated together before the first is sent', async () => {
    const p = await project({ 'suites/spend.yaml': suite(CASES, { name: 'models' }) });
    const before = await sim.stats();
    // Each candidate alone is estimated under the cap (about $0.0062 and $0.0041); both together are not.
    const run = await runMain(
      ['run', '--models', 'openai/gpt-4o-mini,meta-llama/llama-3.3-70b-instruct', '--max-cost', '0.009'],
      { cwd: p.dir, env },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--max-cost $0.009: the estimate for the 2 candidates' runs is $0.01");
    expect(await sentSince(before, 'models')).toBe(0);
  });

  it('a --max-cost that is not an amount is a usage error', async () => {
    const p = await project({ 'suites/spend.yaml': suite(1, { name: 'amount' }) });
    for (const bad of ['0', '-1', 'ten', '', '0x10', 'Infinity']) {
      const run = await runMain(['run', `--max-cost=${bad}`], { cwd: p.dir, env });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('--max-cost expects an amount of US dollars above 0');
    }
  });
});
