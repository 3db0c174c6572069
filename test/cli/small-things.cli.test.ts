import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyFromRepo, makeProject, readReport, REPO } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';

describe('small things a user trips on', () => {
  it('an unknown flag is named with its did-you-mean alone, no Node advice with an unbalanced quote', async () => {
    const project = await makeProject({});
    try {
      const typo = await runMain(['run', '--updat-baselines'], { cwd: project.dir });
      expect(typo.code).toBe(2);
      expect(typo.stderr).toBe(
        "driftcheck run: unknown option '--updat-baselines'\n  → did you mean --update-baselines?\n  → run 'driftcheck run --help' for the options\n",
      );
      const unknown = await runMain(['validate', '--frobnicate'], { cwd: project.dir });
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toBe(
        "driftcheck validate: unknown option '--frobnicate'\n  → run 'driftcheck validate --help' for the options\n",
      );
      // Every quote it prints is closed.
      for (const text of [typo.stderr, unknown.stderr]) expect((text.match(/'/g) ?? []).length % 2).toBe(0);
    } finally {
      await project.cleanup();
    }
  });

  it('the top-level help names each command’s arguments as its own --help does', async () => {
    const project = await makeProject({});
    try {
      const top = (await runMain(['--help'], { cwd: project.dir })).stdout;
      const commands = top.slice(top.indexOf('Commands:'), top.indexOf('Run options:')).split('\n').slice(1);
      const caps = (text: string) => text.match(/\b[A-Z][A-Z_]+\b/g) ?? [];
      let checked = 0;
      for (const line of commands.filter((l) => l.trim())) {
        const [shown] = line.trim().split(/ {2,}/);
        const command = shown!.split(' ')[0]!;
        const usage =
          /^Usage: .*$/m.exec((await runMain([command, '--help'], { cwd: project.dir })).stdout)?.[0] ?? '';
        for (const word of caps(shown!)) expect(caps(usage), `${shown} vs ${usage}`).toContain(word);
        checked++;
      }
      expect(checked).toBe(15);
      expect(top).toContain('diff RUN_A RUN_B');
    } finally {
      await project.cleanup();
    }
  });

  it('verify prints the cost with $', async () => {
    const project = await makeProject({});
    try {
      const verify = await runMain(['verify', '--sim', '--service', 'router'], { cwd: project.dir });
      expect(verify.code).toBe(0);
      expect(verify.stdout).toMatch(/usage: \d+ prompt \+ \d+ completion = \d+ tokens · cost \$\d/);
    } finally {
      await project.cleanup();
    }
  });

  it("the README's shard example runs as written: the shards it writes are the ones it merges", async () => {
    const readme = await readFile(join(REPO, 'README.md'), 'utf8');
    const block = /```sh\n(driftcheck run suites\/ --shard[\s\S]*?)```/.exec(readme)?.[1];
    expect(block).toBeDefined();
    const [runLine, mergeLine] = block!.split('\n').map((l) => l.replace(/\s+#.*$/, '').trim());
    expect(runLine).toMatch(/--shard 3\/8 --report-dir (\S+)/);
    expect(mergeLine).toMatch(/^driftcheck merge \S+ --out merged$/);
    const project = await makeProject({});
    try {
      await copyFromRepo(project.dir, 'suites/demo', 'baselines');
      for (let i = 1; i <= 8; i++) {
        const args = runLine!
          .split(' ')
          .slice(1)
          .map((w) => w.replace('3/8', `${i}/8`).replace(/\/3$/, `/${i}`));
        const shard = await runMain([...args, '--sim', '--reporter', 'json'], { cwd: project.dir });
        expect(shard.code, shard.stderr).not.toBe(2);
      }
      // The shell's expansion of the merge line's glob (shards/*/2*/), done here.
      const glob = mergeLine!.split(' ')[2]!;
      const [root, , runGlob] = glob.split('/');
      expect([root, runGlob]).toEqual(['shards', '2*']);
      const dirs: string[] = [];
      for (const shard of await readdir(join(project.dir, root!)))
        for (const run of await readdir(join(project.dir, root!, shard)))
          if (run.startsWith('2')) dirs.push(join(root!, shard, run));
      expect(dirs).toHaveLength(8);
      const merged = await runMain(['merge', ...dirs, '--out', 'merged'], { cwd: project.dir });
      expect(merged.code, merged.stderr).toBe(1); // the demo's regressions, as an unsharded run
      expect((await readReport(join(project.dir, 'merged'))).summary).toMatchObject({
        cases: 29,
        regressed: 10,
      });
    } finally {
      await project.cleanup();
    }
  });
});
