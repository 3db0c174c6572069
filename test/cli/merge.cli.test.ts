import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/stored/report/types.js';
import { makeProject, readReport, runDirFrom } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';

function suite(name: string, ids: string[]): string {
  const cases = ids.map((id) => {
    const sim =
      id === 'broken'
        ? '\n    sim: { fault: body_error }'
        : id === 'changed'
          ? '\n    sim: { reply: "different" }'
          : '';
    return `  - id: ${id}\n    prompt: "Say exactly: ok ${id}"${sim}\n    expect: [{ contains: ok }]`;
  });
  return `suite: ${name}\nservice: router\nmodel: openai/gpt-4o-mini\nrepeat: 2\ncases:\n${cases.join('\n')}\n`;
}

/** What makes two reports' verdicts equal, independent of run ids and timings. */
/**
 * Drift that measures time: two runs of the same answers take their own time, so whether
 * their latency moved beyond its tolerance is the clock's, not the merge's, to say.
 */
const TIMED = new Set(['latency_changed', 'ttft_changed', 'throughput_changed']);

function verdict(report: Report) {
  const untimed = <D extends { kind: string }>(drift: D[]) => drift.filter((d) => !TIMED.has(d.kind));
  const suiteFindings = report.suites.reduce(
    (n, s) => n + s.drift.filter((d) => TIMED.has(d.kind)).length,
    0,
  );
  return {
    exit_code: report.run.exit_code,
    status: report.run.status,
    summary: { ...report.summary, suite_findings: report.summary.suite_findings - suiteFindings },
    cases: report.cases.map((c) => [
      c.id,
      c.samples,
      c.status,
      c.error?.kind ?? null,
      untimed(c.drift)
        .map((d) => d.kind)
        .sort(),
    ]),
    suites: report.suites.map((s) => [s.suite, s.models, untimed(s.drift).map((d) => [d.kind, d.message])]),
  };
}

describe('shards and merge', () => {
  let project: Awaited<ReturnType<typeof makeProject>>;
  let unsharded: Report;

  beforeAll(async () => {
    const a = ['one', 'two', 'changed', 'four', 'five', 'six', 'seven'];
    project = await makeProject({
      'suites/a.yaml': suite('alpha', [...a, 'removed-later']),
      'suites/b.yaml': suite('beta', ['b1', 'b2', 'b3', 'b4']),
    });
    // Baselines from a healthy earlier run; then a case is removed, one breaks, one is new.
    const healthy = await runMain(['run', '--sim', '--update-baselines', '--reporter', 'json'], {
      cwd: project.dir,
    });
    expect(healthy.code).toBe(1); // 'changed' fails its own expectation already
    await writeFile(join(project.dir, 'suites/a.yaml'), suite('alpha', [...a, 'broken', 'new-case']));
    const run = await runMain(['run', '--sim', '--reporter', 'json'], { cwd: project.dir });
    unsharded = await readReport(runDirFrom(run, project.dir));
  });
  afterAll(() => project.cleanup());

  it.each([2, 3, 5])('merging %i shards equals the unsharded run', async (total) => {
    const dirs: string[] = [];
    const seen = new Set<string>();
    for (let i = 1; i <= total; i++) {
      const shard = await runMain(['run', '--sim', '--shard', `${i}/${total}`, '--reporter', 'json'], {
        cwd: project.dir,
      });
      const dir = runDirFrom(shard, project.dir);
      const report = await readReport(dir);
      expect(report.run.shard).toEqual({ index: i, total });
      // A shard cannot know what is missing (its repeat-2 baselines are weak, which it does say).
      expect(
        report.suites.flatMap((s) => s.drift.map((d) => d.kind)).filter((k) => k !== 'weak_baseline'),
      ).toEqual([]);
      for (const c of report.cases) {
        expect(seen.has(c.id)).toBe(false); // every case in exactly one shard
        seen.add(c.id);
      }
      dirs.push(dir);
    }
    expect(seen.size).toBe(unsharded.cases.length);
    const out = join(project.dir, `merged-${total}`);
    const merge = await runMain(['merge', ...dirs, '--out', out], { cwd: project.dir });
    const merged = await readReport(out);
    expect(merge.code).toBe(unsharded.run.exit_code);
    expect(verdict(merged)).toEqual(verdict(unsharded));
    expect(merged.suites.find((s) => s.suite === 'alpha')?.drift.map((d) => d.kind)).toEqual([
      'missing_case',
      'weak_baseline',
    ]);
  });

  it('refuses the same shard twice, and a shard missing unless --allow-partial', async () => {
    const shard = await runMain(['run', '--sim', '--shard', '1/2', '--reporter', 'json'], {
      cwd: project.dir,
    });
    const dir = runDirFrom(shard, project.dir);
    const twice = await runMain(['merge', dir, dir, '--out', join(project.dir, 'twice')], {
      cwd: project.dir,
    });
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/run folder \S+ was given twice/);
    const partial = await runMain(['merge', dir, '--out', join(project.dir, 'partial')], {
      cwd: project.dir,
    });
    expect(partial.code).toBe(2);
    expect(partial.stderr).toMatch(/shard 2\/2 missing/);
    const allowed = await runMain(['merge', dir, '--out', join(project.dir, 'partial'), '--allow-partial'], {
      cwd: project.dir,
    });
    expect(allowed.stderr).toMatch(/shard 2\/2 missing: the merged report is partial/);
    const merged = await readReport(join(project.dir, 'partial'));
    // Partial: nothing in the baseline can be called missing.
    expect(merged.suites.flatMap((s) => s.drift.map((d) => d.kind))).not.toContain('missing_case');
  });
});

describe('a suite with fewer cases than shards', () => {
  let project: Awaited<ReturnType<typeof makeProject>>;
  const dirs: string[] = [];

  beforeAll(async () => {
    project = await makeProject({ 'suites/small.yaml': suite('small', ['s1', 's2']) });
    for (let i = 1; i <= 3; i++) {
      const shard = await runMain(['run', '--sim', '--shard', `${i}/3`, '--reporter', 'json'], {
        cwd: project.dir,
      });
      expect(shard.code).toBe(0);
      dirs.push(runDirFrom(shard, project.dir));
    }
  });
  afterAll(() => project.cleanup());

  it('the shard that draws no case writes a run folder with an empty plan and exits 0', async () => {
    const empty = await readReport(dirs[2]!);
    expect(empty.run.shard).toEqual({ index: 3, total: 3 });
    expect(empty.run.status).toBe('completed');
    expect(empty.summary).toMatchObject({ cases: 0, not_run: 0 });
    const journal = (await readFile(join(dirs[2]!, 'results.jsonl'), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { type?: string });
    expect(journal.map((r) => r.type)).toEqual(['run', 'end']); // no plan, no sample
    expect(existsSync(join(dirs[2]!, 'run.json'))).toBe(true);
    // list shows what that run sent: nothing, and no error.
    const list = await runMain(['list', '--shard', '3/3'], { cwd: project.dir });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('0 cases, 0 samples from 0 suites');
  });

  it('merge counts the empty shard as present; without it, or without another, it fails', async () => {
    const out = join(project.dir, 'merged');
    const merge = await runMain(['merge', ...dirs, '--out', out], { cwd: project.dir });
    expect(merge.stderr).toMatch(/merged 3 run\(s\)/);
    expect(merge.code).toBe(0);
    const merged = await readReport(out);
    expect(merged.summary).toMatchObject({ cases: 2, passed: 2, not_run: 0 });

    for (const [without, missing] of [
      [2, '3/3'],
      [1, '2/3'],
    ] as const) {
      const partial = await runMain(
        ['merge', ...dirs.filter((_, i) => i !== without), '--out', join(project.dir, `partial-${without}`)],
        { cwd: project.dir },
      );
      expect(partial.code).toBe(2);
      expect(partial.stderr).toContain(`shard ${missing} missing`);
    }
  });

  it('a filter that matches nothing still selects nothing: exit 2, no run folder', async () => {
    const before = await readdir(join(project.dir, 'reports'));
    const run = await runMain(['run', '--sim', '--filter', 'nomatch'], { cwd: project.dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--filter 'nomatch' matches no case of 2/);
    expect(await readdir(join(project.dir, 'reports'))).toEqual(before);
  });
});

describe('a shard killed part-way', () => {
  let project: Awaited<ReturnType<typeof makeProject>>;

  beforeAll(async () => {
    project = await makeProject({
      'suites/a.yaml': suite('alpha', ['a1', 'a2', 'a3', 'a4']),
      'suites/b.yaml': suite('beta', ['b1', 'b2', 'b3', 'b4']),
      'suites/c.yaml': suite('gamma', ['c1', 'c2', 'c3', 'c4']),
    });
  });
  afterAll(() => project.cleanup());

  it('merge reports the suites it never reached from its plan alone: every case, in plan order, its own not run', async () => {
    const dirs: string[] = [];
    for (const shard of ['1/2', '2/2']) {
      const run = await runMain(['run', '--sim', '--shard', shard, '--reporter', 'json'], {
        cwd: project.dir,
      });
      expect(run.code).toBe(0);
      dirs.push(runDirFrom(run, project.dir));
    }
    // Shard 2 as a kill after its first suite leaves it: its head, alpha's samples, no end.
    const journal = join(dirs[1]!, 'results.jsonl');
    const records = (await readFile(journal, 'utf8')).split('\n').filter(Boolean);
    const kept = records.filter((line) => {
      const r = JSON.parse(line) as { type?: string; suite?: string };
      return r.type === 'run' || r.type === 'plan' || (r.type === undefined && r.suite === 'alpha');
    });
    expect(kept.length).toBeLessThan(records.length - 1);
    await writeFile(journal, `${kept.join('\n')}\n`);

    const out = join(project.dir, 'merged');
    const merge = await runMain(['merge', ...dirs, '--out', out], { cwd: project.dir });
    const merged = await readReport(out);
    expect(merged.run.status).toBe('interrupted');
    expect(merge.code).toBe(merged.run.exit_code);
    expect(merged.suites.map((s) => s.suite)).toEqual(['alpha', 'beta', 'gamma']);
    const ids = ['a', 'b', 'c'].flatMap((s) => [1, 2, 3, 4].map((n) => `${s}${n}`));
    expect(merged.cases.map((c) => c.id.split('/')[1])).toEqual(ids);
    // Round-robin shards: shard 2 planned the even cases; past alpha it sent none of them.
    const notRun = merged.cases.filter((c) => c.status === 'not_run').map((c) => c.id.split('/')[1]);
    expect(notRun).toEqual(['b2', 'b4', 'c2', 'c4']);
    expect(merged.summary).toMatchObject({ cases: 12, not_run: 4 });
  });
});
