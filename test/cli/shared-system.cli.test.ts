import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyFromRepo, makeProject, readReport, runDirFrom } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';

/** Occurrences of `needle` in `text`. */
const count = (text: string, needle: string): number => text.split(needle).length - 1;

function suiteWith(system: string, cases: number): string {
  const lines = [
    'suite: shared',
    'service: router',
    'model: openai/gpt-4o-mini',
    `system: "${system}"`,
    'cases:',
  ];
  for (let i = 0; i < cases; i++) lines.push(`  - { id: c${i}, prompt: "question ${i}" }`);
  return `${lines.join('\n')}\n`;
}

describe("a suite's system prompt in the journal", () => {
  it('a 256 KB system prompt over 2,200 cases runs, and the journal and report.json hold the prompt once', async () => {
    // Words, so no two runs of it look alike to a compressor; 256 KB in all.
    const words = ['refund', 'policy', 'order', 'window', 'customer', 'support', 'ACME', 'shipping'];
    let system = 'POLICY-START ';
    for (let i = 0; system.length < 256 * 1024; i++) system += `${words[(i * 7) % words.length]} ${i} `;
    const project = await makeProject({ 'suites/shared.yaml': suiteWith(system, 2_200) });
    try {
      await copyFromRepo(project.dir, 'driftcheck.config.yaml');
      // The console reporter only (report.json is always written): the journal is what is under test.
      const run = await runMain(['run', '--sim', '--reporter', 'console'], { cwd: project.dir });
      expect(run.stderr).not.toMatch(/internal error|RangeError/);
      expect(run.code, run.stderr).toBe(0);
      const dir = runDirFrom(run, project.dir);
      const journal = await readFile(join(dir, 'results.jsonl'), 'utf8');
      expect(count(journal, 'POLICY-START')).toBe(1);
      // 2,200 sample lines and the plan's own messages: a few MB, not 563.
      expect(journal.length).toBeLessThan(8 * 1024 * 1024);
      // report.json (schema 3) holds it once too, in its suite: within the journal's size (was ~580 MB).
      const report = await readFile(join(dir, 'report.json'), 'utf8');
      expect(count(report, 'POLICY-START')).toBe(1);
      expect(report.length).toBeLessThanOrEqual(journal.length);
      expect((await readReport(dir)).cases[2_199]!.messages[0]).toEqual({ role: 'system', content: system });
    } finally {
      await project.cleanup();
    }
  }, 240_000);

  it('report, --resume and merge put it back in front of every case', async () => {
    const system = 'You answer for ACME support, briefly.';
    const project = await makeProject({ 'suites/shared.yaml': suiteWith(system, 6) });
    try {
      await copyFromRepo(project.dir, 'driftcheck.config.yaml');
      const expectMessages = async (dir: string) => {
        const report = await readReport(dir);
        expect(report.cases).toHaveLength(6);
        for (const c of report.cases) {
          expect(c.messages).toEqual([
            { role: 'system', content: system },
            { role: 'user', content: `question ${c.case.slice(1)}` },
          ]);
        }
      };
      const run = await runMain(['run', '--sim', '--reporter', 'json'], { cwd: project.dir });
      expect(run.code, run.stderr).toBe(0);
      const dir = runDirFrom(run, project.dir);
      expect(count(await readFile(join(dir, 'results.jsonl'), 'utf8'), system)).toBe(1);
      await expectMessages(dir);
      for (const args of [
        ['report', dir],
        ['run', '--resume', dir, '--reporter', 'json'],
      ]) {
        await rm(join(dir, 'report.json'));
        const again = await runMain(args, { cwd: project.dir });
        expect(again.code, `${args.join(' ')}: ${again.stderr}`).toBe(0);
        await expectMessages(dir);
      }
      const shards: string[] = [];
      for (const i of [1, 2]) {
        const shard = await runMain(['run', '--sim', '--shard', `${i}/2`, '--reporter', 'json'], {
          cwd: project.dir,
        });
        expect(shard.code, shard.stderr).toBe(0);
        shards.push(runDirFrom(shard, project.dir));
      }
      const out = join(project.dir, 'merged');
      const merge = await runMain(['merge', ...shards, '--out', out], { cwd: project.dir });
      expect(merge.code, merge.stderr).toBe(0);
      await expectMessages(out);
    } finally {
      await project.cleanup();
    }
  });
});
