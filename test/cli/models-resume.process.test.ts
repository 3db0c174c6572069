import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Comparison } from '../../src/compare/types.js';
import { type CliResult, makeProject, readReport, runCli, spawnCli } from '../helpers/cli.js';
import { completion, type LoopbackService, sendJson, startLoopbackService } from '../hostile/loopback.js';

const KEY = `sk-or-v1-${'ab12'.repeat(16)}`;
const A = 'openai/gpt-4o';
const B = 'anthropic/claude-sonnet-4.5';

const SUITE = `suite: night
service: router
model: openai/gpt-4o-mini
cases:
${[0, 1, 2].map((i) => `  - id: c${i}\n    prompt: "Say exactly: ok ${i}"\n    expect: [{ contains: ok }]`).join('\n')}
`;

/**
 * A router that lists the three models and answers each; the `hold`-th request of the
 * model it names is never answered (a request in flight when the test interrupts the run),
 * and `seen` is told when it arrives.
 */
async function fakeRouter(hold: { model: string; nth: number; seen: () => void } | null) {
  const asked = new Map<string, number>();
  let holding = hold;
  const service = await startLoopbackService((req, res) => {
    if (req.method === 'GET')
      return sendJson(
        res,
        200,
        JSON.stringify({ data: [{ id: 'openai/gpt-4o-mini' }, { id: A }, { id: B }] }),
      );
    const n = (asked.get(req.model) ?? 0) + 1;
    asked.set(req.model, n);
    if (holding && req.model === holding.model && n === holding.nth) return holding.seen();
    sendJson(res, 200, completion(`ok ${req.prompt}`, req.model));
  });
  return Object.assign(service, { release: () => (holding = null) });
}

const config = (router: LoopbackService) =>
  `services:\n  router: { kind: router, base_url: ${router.url}/api/v1, api_key_env: OPENROUTER_API_KEY, retries: 0 }\n`;
const env = { OPENROUTER_API_KEY: KEY, DRIFTCHECK_INTERRUPT_GRACE_S: '0' };
const sentTo = (router: LoopbackService, model: string) =>
  router.seen.filter((r) => r.method === 'POST' && r.model === model).length;

/** The comparison folder a `run --models` printed (relative to the project), from its resume hint or its files. */
function compareDirOf(result: CliResult): string {
  const m =
    /run --resume (reports\/compare-\S+)/.exec(result.stderr) ??
    /compare: (reports\/compare-[^/\s]+)\/compare\.json/.exec(result.stderr);
  if (!m) throw new Error(`no comparison folder in stderr:\n${result.stderr}`);
  return m[1]!;
}

async function readComparison(dir: string): Promise<Comparison> {
  return JSON.parse(await readFile(join(dir, 'compare.json'), 'utf8')) as Comparison;
}

/** Runs `run --models A,B` and interrupts it (SIGINT) once the held request is in flight. */
async function interrupted(project: string, inFlight: Promise<void>) {
  const child = spawnCli(['run', '--models', `${A},${B}`, '--concurrency', '1'], { cwd: project, env });
  await inFlight;
  child.child.kill('SIGINT');
  return child.result;
}

describe('run --models interrupted, then resumed as one command', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  async function setUp(hold: { model: string; nth: number }) {
    let signal: () => void = () => {};
    const inFlight = new Promise<void>((done) => (signal = done));
    const router = await fakeRouter({ ...hold, seen: () => signal() });
    const project = await makeProject({
      'driftcheck.config.yaml': config(router),
      'suites/night.yaml': SUITE,
    });
    cleanups.push(project.cleanup, router.close);
    const night = await runCli(['run', '--update-baselines', '--reporter', 'json'], {
      cwd: project.dir,
      env,
    });
    expect(night.code, night.stderr).toBe(0);
    return { router, project, inFlight };
  }

  it('names the candidate that did not run everywhere; --resume of one of its runs finishes every candidate and rebuilds compare.*', async () => {
    const { router, project, inFlight } = await setUp({ model: A, nth: 2 });
    const first = await interrupted(project.dir, inFlight);
    expect(first.code, first.stderr).toBe(130);
    expect(sentTo(router, B)).toBe(0);
    const dir = compareDirOf(first);
    const abs = join(project.dir, dir);

    // Console, compare.json, .md and .html all say that B did not run, and how to finish it.
    expect(first.stdout).toMatch(
      new RegExp(
        `^not run: candidate ${B} did not run \\(the command was interrupted \\(SIGINT\\) before it started\\)`,
        'm',
      ),
    );
    expect(first.stderr).toContain(
      `driftcheck: not run: candidate ${B}\n  → finish every candidate and rebuild the comparison with: driftcheck run --resume ${dir}`,
    );
    const before = await readComparison(abs);
    expect(before.candidates.map((c) => [c.label, c.run_status, c.exit_code])).toEqual([
      [A, 'interrupted', 130],
    ]);
    expect(before.candidates_not_run).toEqual([
      {
        label: B,
        run_id: expect.stringMatching(/^\d{8}T\d{9}Z-[0-9a-f]{4}$/),
        reason: 'the command was interrupted (SIGINT) before it started',
      },
    ]);
    expect(await readFile(join(abs, 'compare.md'), 'utf8')).toContain(
      `**Not run:** candidate ${B} did not run`,
    );
    expect(await readFile(join(abs, 'compare.html'), 'utf8')).toContain(
      `<li class="bad">candidate ${B} did not run`,
    );
    // The folder is named by both candidates' runs, and says what it is made of.
    const runA = before.candidates[0]!.run_id;
    const runB = before.candidates_not_run[0]!.run_id;
    expect(basename(abs)).toBe(`compare-${runA}-${runB}`);
    const manifest = JSON.parse(await readFile(join(abs, 'candidates.json'), 'utf8')) as {
      candidates: { label: string; run_id: string }[];
    };
    expect(manifest.candidates.map((c) => [c.label, c.run_id])).toEqual([
      [A, runA],
      [B, runB],
    ]);

    // Resumed from A's run folder, as its own interrupted line says to.
    router.release();
    const resumed = await runCli(['run', '--resume', `reports/${runA}`], { cwd: project.dir, env });
    expect(resumed.code, resumed.stderr).toBe(0);
    // A's two unanswered cases (the one in flight was abandoned), and all of B's.
    expect(sentTo(router, A)).toBe(4);
    expect(sentTo(router, B)).toBe(3);
    const after = await readComparison(abs);
    expect(after.candidates.map((c) => [c.label, c.run_id, c.run_status, c.exit_code])).toEqual([
      [A, runA, 'completed', 0],
      [B, runB, 'completed', 0],
    ]);
    expect(after.candidates_not_run).toEqual([]);
    expect(resumed.stderr).toContain(`compare: ${dir}/compare.json`);
    expect(resumed.stdout).not.toMatch(/not run: candidate/);
    for (const id of [runA, runB]) {
      const report = await readReport(join(project.dir, 'reports', id));
      expect(report.run.status).toBe('completed');
      expect(report.summary.cases).toBe(3);
    }
  });

  it('--resume of the comparison folder leaves a finished candidate as it is and finishes the rest', async () => {
    // Interrupted in B's second case: A is complete.
    const { router, project, inFlight } = await setUp({ model: B, nth: 2 });
    const first = await interrupted(project.dir, inFlight);
    expect(first.code, first.stderr).toBe(130);
    const dir = compareDirOf(first);
    const before = await readComparison(join(project.dir, dir));
    expect(before.candidates.map((c) => [c.label, c.run_status])).toEqual([
      [A, 'completed'],
      [B, 'interrupted'],
    ]);
    expect(before.candidates_not_run).toEqual([]);
    expect(sentTo(router, A)).toBe(3);

    router.release();
    const resumed = await runCli(['run', '--resume', dir], { cwd: project.dir, env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(sentTo(router, A)).toBe(3);
    expect(sentTo(router, B)).toBe(4);
    expect(resumed.stderr).toContain(
      `driftcheck: its run ${before.candidates[0]!.run_id} completed earlier: compared as it is`,
    );
    const after = await readComparison(join(project.dir, dir));
    expect(after.candidates.map((c) => [c.label, c.run_status, c.exit_code])).toEqual([
      [A, 'completed', 0],
      [B, 'completed', 0],
    ]);
  });
});
