import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Comparison } from '../../src/compare/types.js';
import { type CliResult, copyFromRepo, makeProject, REPO } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';
import { completion, type LoopbackService, sendJson, startLoopbackService } from '../hostile/loopback.js';

type Project = Awaited<ReturnType<typeof makeProject>>;

const validate = new Ajv2020({ allErrors: true, strict: true }).compile(
  JSON.parse(await readFile(join(REPO, 'schemas/compare.schema.json'), 'utf8')),
);
function schemaErrors(value: unknown): string[] {
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

/** Every run folder a command printed, in order. */
function runDirsFrom(result: CliResult, cwd: string): string[] {
  return [...result.stderr.matchAll(/report: (.+)\/report\.json/g)].map((m) => join(cwd, m[1]!));
}

/** The compare folder a command printed (`compare: <dir>/compare.json · …`). */
function compareDirFrom(result: CliResult, cwd: string): string {
  const m = /compare: (.+)\/compare\.json/.exec(result.stderr);
  if (!m) throw new Error(`no compare files in:\n${result.stderr}`);
  return join(cwd, m[1]!);
}

async function readComparison(dir: string): Promise<Comparison> {
  return JSON.parse(await readFile(join(dir, 'compare.json'), 'utf8')) as Comparison;
}

describe('run --models writes one comparison beside the candidate runs (the demo, on the simulator)', () => {
  let project: Project;
  let run: CliResult;
  beforeAll(async () => {
    project = await makeProject();
    await copyFromRepo(project.dir, 'suites/demo', 'baselines');
    run = await runMain(
      [
        'run',
        '--sim',
        'suites/demo',
        '--models',
        'openai/gpt-4o-mini,anthropic/claude-sonnet-4.5',
        '--reporter',
        'json',
      ],
      { cwd: project.dir },
    );
  });
  afterAll(() => project.cleanup());

  it('writes compare.json (valid against its schema), compare.md and compare.html in reports/compare-<first>-<last>/', async () => {
    expect(run.code, run.stderr).toBe(1);
    const runs = runDirsFrom(run, project.dir);
    expect(runs).toHaveLength(2);
    const dir = compareDirFrom(run, project.dir);
    const ids = runs.map((r) => r.split('/').pop()!);
    expect(dir).toBe(join(project.dir, 'reports', `compare-${ids[0]}-${ids[1]}`));
    for (const name of ['compare.json', 'compare.md', 'compare.html'])
      expect(existsSync(join(dir, name))).toBe(true);
    const comparison = await readComparison(dir);
    expect(schemaErrors(comparison)).toEqual([]);
    expect(comparison.reference.kind).toBe('baseline');
    expect(comparison.candidates.map((c) => [c.label, c.run_id, c.dir])).toEqual([
      ['openai/gpt-4o-mini', ids[0], `../${ids[0]}`],
      ['anthropic/claude-sonnet-4.5', ids[1], `../${ids[1]}`],
    ]);
    // The console's totals are the comparison's: counted once.
    for (const c of comparison.candidates) {
      expect(c.cases).toBe(25);
      expect(run.stdout).toContain(`${c.passed} / ${c.cases}`);
      expect(c.pass_rate!.low).toBeLessThanOrEqual(c.pass_rate!.rate);
      expect(c.pass_rate!.high).toBeGreaterThanOrEqual(c.pass_rate!.rate);
      expect(c.providers.length).toBeGreaterThan(0);
      expect(c.tools).not.toBeNull();
      expect(c.latency_ms).not.toBeNull();
      // The paired verdict against the baseline files: one line, the console's.
      // The demo's tool suite samples a case 10 times: the sign test over cases.
      expect(c.verdict.method).toBe('sign');
      expect(c.verdict.cases).toBe(c.cases);
      expect(c.verdict.regressions).toBeGreaterThanOrEqual(1);
      expect(run.stdout).toContain(`${c.label}: ${c.verdict.line}\n`);
    }
    expect(comparison.cases).toHaveLength(25);
    const refund = comparison.cases.find((r) => r.id === 'support-demo/refund-window')!;
    expect(refund.cells.map((c) => c.change)).toEqual(['regressed', 'regressed']);
    expect(refund.reference.content).toContain('30 days');
    expect(comparison.skipped_suites.map((s) => [s.suite, s.candidates.length])).toEqual([
      ['direct-demo', 2],
    ]);
  });

  it('keeps reports/latest on the newest run folder, and compare.md short enough for a PR comment', async () => {
    const runs = runDirsFrom(run, project.dir);
    expect(await readlink(join(project.dir, 'reports', 'latest'))).toBe(runs[1]!.split('/').pop());
    const md = await readFile(join(compareDirFrom(run, project.dir), 'compare.md'), 'utf8');
    expect(md.length).toBeLessThan(10_000);
    expect(md).toMatch(/\| pass rate \| \d+% \(\d+\/25; 95% CI/);
    expect(md).toContain('`support-demo/refund-window`');
    const comparison = await readComparison(compareDirFrom(run, project.dir));
    for (const c of comparison.candidates) expect(md).toContain(`**${c.label}**: ${c.verdict.line}`);
    const html = await readFile(join(compareDirFrom(run, project.dir), 'compare.html'), 'utf8');
    expect(html).toContain('Content-Security-Policy');
    expect(html).toMatch(/<svg id="chart"/);
  });

  it('driftcheck compare of the two candidate runs, read back from disk, makes the same comparison', async () => {
    const runs = runDirsFrom(run, project.dir);
    const out = join(project.dir, 'again');
    const again = await runMain(['compare', ...runs, '--out', out], { cwd: project.dir });
    expect(again.code, again.stderr).toBe(1);
    const live = await readComparison(compareDirFrom(run, project.dir));
    const read = await readComparison(out);
    // Only where the files sit differs: the run folders relative to each.
    expect({ ...read, candidates: read.candidates.map((c) => ({ ...c, dir: null })) }).toEqual({
      ...live,
      candidates: live.candidates.map((c) => ({ ...c, dir: null })),
    });
    expect(again.stdout).toContain('Runs against the baseline each ran against:');
  });
});

const suite = (reply: string) => `suite: nightly
service: router
model: openai/gpt-4o-mini
cases:
  - id: refund
    prompt: What is the refund window?
    sim: { reply: "${reply}" }
    expect: [{ contains: 30 days }]
  - id: greeting
    prompt: "Say exactly: hello"
    sim: { reply: "hello" }
    expect: [{ equals: hello }]
`;

describe('driftcheck compare RUN_DIR… of two nights', () => {
  let project: Project;
  const nights: string[] = [];
  beforeAll(async () => {
    project = await makeProject();
    for (const reply of ['Refunds within 30 days.', 'Refunds within 14 days.', 'Refunds within 30 days.']) {
      await writeFile(join(project.dir, 'suites.yaml'), suite(reply));
      const night = await runMain(['run', '--sim', 'suites.yaml', '--reporter', 'json'], {
        cwd: project.dir,
      });
      nights.push(runDirsFrom(night, project.dir)[0]!);
    }
  });
  afterAll(() => project.cleanup());

  it('takes the first night as the reference: the second regressed (exit 1), with its answer diffed', async () => {
    const result = await runMain(['compare', nights[0]!, nights[1]!], { cwd: project.dir });
    expect(result.code, result.stderr).toBe(1);
    const dir = compareDirFrom(result, project.dir);
    const ids = nights.map((n) => n.split('/').pop()!);
    expect(dir).toBe(join(project.dir, 'reports', `compare-${ids[1]}`));
    const comparison = await readComparison(dir);
    expect(schemaErrors(comparison)).toEqual([]);
    expect(comparison.reference).toMatchObject({ kind: 'run', run_id: ids[0], dir: `../${ids[0]}` });
    expect(comparison.cases.map((r) => [r.case, r.reference.status, r.cells[0]!.change])).toEqual([
      ['refund', 'pass', 'regressed'],
      ['greeting', 'pass', 'same'],
    ]);
    expect(comparison.cases[0]!.cells[0]!.content).toBe('Refunds within 14 days.');
    expect(comparison.cases[0]!.reference.content).toBe('Refunds within 30 days.');
    expect(result.stdout).toMatch(/nightly\/refund\s+│ REGRESSED \(fail\)/);
  });

  it('exits 0 when nothing regressed against the reference, and takes --reference', async () => {
    const same = await runMain(['compare', nights[0]!, nights[2]!, '--out', 'same'], { cwd: project.dir });
    expect(same.code, same.stderr).toBe(0);
    expect((await readComparison(join(project.dir, 'same'))).candidates[0]!.changes).toMatchObject({
      same: 2,
      regressed: 0,
    });
    // Both later nights against the first: the fixed one and the regressed one, side by side.
    const both = await runMain(
      ['compare', nights[1]!, nights[2]!, '--reference', nights[0]!, '--out', 'both'],
      {
        cwd: project.dir,
      },
    );
    expect(both.code, both.stderr).toBe(1);
    const comparison = await readComparison(join(project.dir, 'both'));
    expect(comparison.candidates.map((c) => c.changes.regressed)).toEqual([1, 0]);
  });

  it('run --models --reference RUN_DIR compares the candidates with a stored night instead of the baseline', async () => {
    const ids = nights.map((n) => n.split('/').pop()!);
    const run = await runMain(
      [
        'run',
        '--sim',
        'suites.yaml',
        '--models',
        'openai/gpt-4o-mini,anthropic/claude-sonnet-4.5',
        '--reference',
        nights[1]!,
        '--reporter',
        'json',
        // Its own folder: the tests below count the compare folders under reports/.
        '--report-dir',
        'candidates',
      ],
      { cwd: project.dir },
    );
    expect(run.stdout).toContain(`Candidates against run ${ids[1]}:`);
    const comparison = await readComparison(compareDirFrom(run, project.dir));
    expect(schemaErrors(comparison)).toEqual([]);
    expect(comparison.reference).toMatchObject({ kind: 'run', run_id: ids[1] });
    // Tonight's suite answers "30 days" again: against the night that said 14, refund is fixed.
    expect(
      comparison.cases.map((r) => [r.case, r.reference.status, ...r.cells.map((c) => c.change)]),
    ).toEqual([
      ['refund', 'fail', 'fixed', 'fixed'],
      ['greeting', 'pass', 'same', 'same'],
    ]);
    for (const c of comparison.candidates) {
      expect(c.verdict).toMatchObject({
        method: 'mcnemar',
        cases: 2,
        regressions: 0,
        fixes: 1,
        worse: false,
      });
      expect(run.stdout).toContain(`${c.label}: ${c.verdict.line}`);
    }
  });

  it('run --reference is refused without candidates, and an unreadable one before anything is sent (exit 2)', async () => {
    const before = (await readdir(join(project.dir, 'reports'))).length;
    const alone = await runMain(['run', '--sim', 'suites.yaml', '--reference', nights[0]!], {
      cwd: project.dir,
    });
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--reference RUN_DIR compares --models or --providers candidates');
    const missing = await runMain(
      [
        'run',
        '--sim',
        'suites.yaml',
        '--models',
        'openai/gpt-4o-mini,openai/gpt-4o',
        '--reference',
        'reports/nope',
      ],
      { cwd: project.dir },
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('reports/nope: no such run folder');
    expect((await readdir(join(project.dir, 'reports'))).length).toBe(before);
  });

  it('run --models --reference RUN_DIR that ran none of the selected cases is refused before anything is sent (exit 2)', async () => {
    const before = (await readdir(join(project.dir, 'reports'))).length;
    await writeFile(
      join(project.dir, 'other.yaml'),
      suite('Refunds within 30 days.').replace('nightly', 'other'),
    );
    const disjoint = await runMain(
      [
        'run',
        '--sim',
        'other.yaml',
        '--models',
        'openai/gpt-4o-mini,openai/gpt-4o',
        '--reference',
        nights[0]!,
      ],
      { cwd: project.dir },
    );
    expect(disjoint.code, disjoint.stderr).toBe(2);
    expect(disjoint.stderr).toContain(
      `--reference: run ${nights[0]!.split('/').pop()} ran none of the cases the candidates would run, so nothing would be compared; nothing was sent`,
    );
    // A filter that leaves only cases the reference ran is compared as usual.
    const some = await runMain(
      [
        'run',
        '--sim',
        'suites.yaml',
        '--models',
        'openai/gpt-4o-mini',
        '--reference',
        nights[0]!,
        '--filter',
        'greeting',
        '--report-dir',
        'filtered',
      ],
      { cwd: project.dir },
    );
    expect(some.code, some.stderr).toBe(0);
    expect((await readdir(join(project.dir, 'reports'))).length).toBe(before);
    // compare of runs that share no case exits 1, its verdict saying so.
    const other = await runMain(
      ['run', '--sim', 'other.yaml', '--reporter', 'json', '--report-dir', 'others'],
      {
        cwd: project.dir,
      },
    );
    const apart = await runMain(
      ['compare', nights[0]!, runDirsFrom(other, project.dir)[0]!, '--out', 'apart'],
      {
        cwd: project.dir,
      },
    );
    expect(apart.code, apart.stderr).toBe(1);
    expect(apart.stdout).toContain('no case in common with the reference: nothing to compare');
    expect(apart.stderr).toContain(
      `shares no case with run ${nights[0]!.split('/').pop()}: nothing was compared\n  → compare runs of the same suites and cases`,
    );
  });

  it('folds a run that has no report.json (killed before writing it) from its journal', async () => {
    const killed = join(project.dir, 'killed');
    await cp(nights[1]!, killed, { recursive: true });
    await rm(join(killed, 'report.json'));
    const result = await runMain(['compare', nights[0]!, 'killed', '--out', 'from-journal'], {
      cwd: project.dir,
    });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain(
      "killed has no report.json: folded from its journal against today's baselines",
    );
    const comparison = await readComparison(join(project.dir, 'from-journal'));
    expect(comparison.cases.map((r) => [r.case, r.cells[0]!.change])).toEqual([
      ['refund', 'regressed'],
      ['greeting', 'same'],
    ]);
  });

  it('refuses what it cannot compare with exit 2, naming the folder', async () => {
    const missing = await runMain(['compare', nights[0]!, join(project.dir, 'reports', 'no-such-run')], {
      cwd: project.dir,
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no-such-run: no such run folder');
    await mkdir(join(project.dir, 'empty'));
    const empty = await runMain(['compare', nights[0]!, 'empty'], { cwd: project.dir });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/empty.*no report\.json/);
    const alone = await runMain(['compare', nights[0]!], { cwd: project.dir });
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('is not a candidate run');
    const twice = await runMain(['compare', nights[0]!, nights[0]!], { cwd: project.dir });
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('is given twice');
    const none = await runMain(['compare'], { cwd: project.dir });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('usage: driftcheck compare RUN_DIR');
    const flag = await runMain(['compare', nights[0]!, nights[1]!, '--referenc', nights[0]!], {
      cwd: project.dir,
    });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('did you mean --reference?');
    const help = await runMain(['compare', '--help'], { cwd: project.dir });
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: driftcheck compare RUN_DIR…[^]*Examples:/);
    await writeFile(join(project.dir, 'empty', 'report.json'), '{"run": "not a report"');
    const damaged = await runMain(['compare', nights[0]!, 'empty'], { cwd: project.dir });
    expect(damaged.code).toBe(2);
    // Nothing half-written for a refused comparison.
    expect((await readdir(join(project.dir, 'reports'))).filter((n) => n.startsWith('compare-'))).toEqual([
      `compare-${nights[1]!.split('/').pop()}`,
    ]);
  });
});

const LLAMA = `suite: llama
service: router
model: meta-llama/llama-3.3-70b-instruct
params: { max_tokens: 64, temperature: 0 }
cases:
  - id: capital
    prompt: What is the capital of France?
    expect: [{ non_empty: true }]
  - id: colour
    prompt: Name a colour.
    expect: [{ non_empty: true }]
`;

describe('--providers: a provider that cannot serve is in the comparison, and compare does not exit 0 for it', () => {
  const KEY = `sk-or-v1-${'ab12'.repeat(16)}`;
  let project: Project;
  let router: LoopbackService;
  const run = (args: string[]) => runMain(args, { cwd: project.dir, env: { OPENROUTER_API_KEY: KEY } });
  beforeAll(async () => {
    // A router whose provider lists cannot be read (so nothing is refused before sending), and
    // whose openai provider answers the documented 503 for this model, as when its endpoint
    // cannot take the request tonight.
    router = await startLoopbackService((req, res) => {
      if (req.method === 'GET') return sendJson(res, 404, '{"error":{"code":404,"message":"Not Found"}}');
      const only = (req.body?.provider as { only?: string[] } | undefined)?.only?.[0];
      if (only === 'openai')
        return sendJson(
          res,
          503,
          '{"error":{"code":503,"message":"No available model provider meets your routing requirements."}}',
        );
      const answer = JSON.parse(completion(`Paris, blue (${req.prompt.length})`, req.model)) as object;
      sendJson(res, 200, JSON.stringify({ ...answer, provider: only === 'groq' ? 'Groq' : 'DeepInfra' }));
    });
    project = await makeProject({
      'suites/llama.yaml': LLAMA,
      'driftcheck.config.yaml': `services:\n  router: { kind: router, base_url: ${router.url}/api/v1, api_key_env: OPENROUTER_API_KEY, retries: 0 }\n`,
    });
    const nightly = await run(['run', 'suites/llama.yaml', '--update-baselines', '--reporter', 'json']);
    expect(nightly.code, nightly.stderr).toBe(0);
  });
  afterAll(async () => {
    await project.cleanup();
    await router.close();
  });

  it('names the provider in compare.json, .md and .html; compare exits 1 with it and 0 without it', async () => {
    const result = await run([
      'run',
      'suites/llama.yaml',
      '--providers',
      'groq,openai',
      '--reporter',
      'json',
    ]);
    expect(result.code).toBe(1);
    const dir = compareDirFrom(result, project.dir);
    const comparison = await readComparison(dir);
    expect(schemaErrors(comparison)).toEqual([]);
    expect(comparison.candidates.map((c) => [c.label, c.provider, c.unserved.length])).toEqual([
      ['groq', 'groq', 0],
      ['openai', 'openai', 1],
    ]);
    expect(comparison.candidates[0]!.providers).toEqual([{ name: 'Groq', cases: 2 }]);
    expect(comparison.candidates[1]!.error_kinds).toEqual({ routing: 2 });
    // It answered nothing: no comparative verdict.
    expect(comparison.candidates[1]!.verdict).toMatchObject({
      could_not_serve: true,
      answered: 0,
      line: 'could not serve: 0 of 2 answered',
    });
    const words =
      'provider openai could not serve meta-llama/llama-3.3-70b-instruct (suite llama, 2 of 2 cases)';
    expect(await readFile(join(dir, 'compare.html'), 'utf8')).toContain(words);
    expect(await readFile(join(dir, 'compare.md'), 'utf8')).toContain(`P${words.slice(1)}`);
    const [groq, openai] = runDirsFrom(result, project.dir);
    const both = await runMain(['compare', groq!, openai!, '--out', 'both'], { cwd: project.dir });
    expect(both.code, both.stderr).toBe(1);
    expect(both.stdout).toContain(words);
    expect(both.stdout).toMatch(/could not serve: 0 of 2 answered/);
    // Groq alone served every case, and nothing regressed against the baseline.
    const alone = await runMain(['compare', groq!, '--out', 'alone'], { cwd: project.dir });
    expect(alone.code, alone.stdout).toBe(0);
  });
});
