import { readdir, readlink, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyFromRepo, makeProject } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';

describe('runs writing into one reports/ at once', () => {
  it('all end normally, and reports/latest points at one of their finished run folders', async () => {
    const project = await makeProject();
    try {
      await copyFromRepo(project.dir, 'driftcheck.config.yaml', 'examples/suites');
      const runs = await Promise.all(
        Array.from({ length: 4 }, () => runMain(['run', '--sim', 'examples/suites'], { cwd: project.dir })),
      );
      for (const run of runs) {
        expect(run.stderr).not.toMatch(/EISDIR|internal error/);
        expect([0, 1], run.stderr).toContain(run.code);
      }
      const reports = join(project.dir, 'reports');
      const folders = (await readdir(reports)).filter((n) => /^\d{8}T/.test(n));
      expect(folders).toHaveLength(4);
      const latest = await readlink(join(reports, 'latest'));
      expect(folders).toContain(latest);
      expect((await stat(join(reports, 'latest', 'report.json'))).isFile()).toBe(true);
      // No temporary link is left behind.
      expect((await readdir(reports)).filter((n) => n.startsWith('.'))).toEqual([]);
    } finally {
      await project.cleanup();
    }
  });
});
