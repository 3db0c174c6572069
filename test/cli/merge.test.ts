import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/types.js';
import { makeProject, readReport, runCli, runDirFrom } from '../helpers/cli.js';

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
function verdict(report: Report) {
  return {
    exit_code: report.run.exit_code,
    status: report.run.status,
    summary: report.summary,
    cases: report.cases.map((c) => [
      c.id,
      c.samples,
      c.status,
      c.error?.kind ?? null,
      c.drift.map((d) => d.kind).sort(),
    ]),
    suites: report.suites.map((s) => [s.suite, s.models, s.drift.map((d) => [d.kind, d.message])]),
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
    const healthy = await runCli(['run', '--sim', '--update-baselines', '--reporter', 'json'], {
      cwd: project.dir,
    });
    expect(healthy.code).toBe(1); // 'changed' fails its own expectation already
    await writeFile(join(project.dir, 'suites/a.yaml'), suite('alpha', [...a, 'broken', 'new-case']));
    const run = await runCli(['run', '--sim', '--reporter', 'json'], { cwd: project.dir });
    unsharded = await readReport(runDirFrom(run, project.dir));
  });
  afterAll(() => project.cleanup());

  it.each([2, 3, 5])('merging %i shards equals the unsharded run', async (total) => {
    const dirs: string[] = [];
    const seen = new Set<string>();
    for (let i = 1; i <= total; i++) {
      const shard = await runCli(['run', '--sim', '--shard', `${i}/${total}`, '--reporter', 'json'], {
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
    const merge = await runCli(['merge', ...dirs, '--out', out], { cwd: project.dir });
    const merged = await readReport(out);
    expect(merge.code).toBe(unsharded.run.exit_code);
    expect(verdict(merged)).toEqual(verdict(unsharded));
    expect(merged.suites.find((s) => s.suite === 'alpha')?.drift.map((d) => d.kind)).toEqual([
      'missing_case',
      'weak_baseline',
    ]);
  });

  it('refuses the same shard twice, and a shard missing unless --allow-partial', async () => {
    const shard = await runCli(['run', '--sim', '--shard', '1/2', '--reporter', 'json'], {
      cwd: project.dir,
    });
    const dir = runDirFrom(shard, project.dir);
    const twice = await runCli(['merge', dir, dir, '--out', join(project.dir, 'twice')], {
      cwd: project.dir,
    });
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/run folder \S+ was given twice/);
    const partial = await runCli(['merge', dir, '--out', join(project.dir, 'partial')], { cwd: project.dir });
    expect(partial.code).toBe(2);
    expect(partial.stderr).toMatch(/shard 2\/2 missing/);
    const allowed = await runCli(['merge', dir, '--out', join(project.dir, 'partial'), '--allow-partial'], {
      cwd: project.dir,
    });
    expect(allowed.stderr).toMatch(/shard 2\/2 missing: the merged report is partial/);
    const merged = await readReport(join(project.dir, 'partial'));
    // Partial: nothing in the baseline can be called missing.
    expect(merged.suites.flatMap((s) => s.drift.map((d) => d.kind))).not.toContain('missing_case');
  });
});
