import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectRunsIndex } from '../../src/report/runs-index/collect.js';
import { runsIndexPage } from '../../src/report/runs-index/write.js';
import { readReportHead } from '../../src/stored/report/read.js';
import { makeProject } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';

// A run ends by writing its reports folder's index with its own head as it holds it, not
// read back from the report.json it has just written. The page must be the one the folder's
// files give: the same head, as written.
const SUITE = [
  'suite: hello',
  'service: router',
  'model: openai/gpt-4o-mini',
  'cases:',
  '  - id: hi',
  '    prompt: "Say exactly: hi"',
  '    expect: [{ contains: hi }]',
  '  - id: bye',
  '    prompt: "Say exactly: bye"',
  '    expect: [{ contains: nope }]',
  '',
].join('\n');

/** The page without the time it was written. */
const undated = (html: string) => html.replace(/ · written [^<]*</, ' · written …<');

describe("the reports folder's index after a run", () => {
  it('is the page the folder gives when every head is read from disk', async () => {
    const project = await makeProject({ 'suites/hello.yaml': SUITE });
    try {
      for (let night = 0; night < 2; night++) {
        const run = await runMain(['run', '--sim', 'suites', '--report-dir', 'reports'], {
          cwd: project.dir,
        });
        expect(run.code).toBe(1);
      }
      const reports = join(project.dir, 'reports');
      const written = await readFile(join(reports, 'index.html'), 'utf8');
      const read = await runsIndexPage(reports);
      expect(undated(written)).toBe(undated(read.html));
      expect(read.index.runs).toHaveLength(2);
      expect(read.index.runs.every((r) => r.head !== null && r.problem === null)).toBe(true);
    } finally {
      await project.cleanup();
    }
  });

  it("takes a known run's head as given, without its report.json", async () => {
    const project = await makeProject({ 'suites/hello.yaml': SUITE });
    try {
      await runMain(['run', '--sim', 'suites', '--report-dir', 'reports'], { cwd: project.dir });
      const reports = join(project.dir, 'reports');
      const { folder } = (await collectRunsIndex(reports)).runs[0]!;
      const { head } = await readReportHead(join(reports, folder));
      await rm(join(reports, folder, 'report.json'));
      expect((await collectRunsIndex(reports)).runs[0]).toMatchObject({
        head: null,
        problem: /no report\.json/,
      });
      expect((await collectRunsIndex(reports, { folder, head })).runs[0]).toMatchObject({
        folder,
        head,
        problem: null,
        html: true,
      });
    } finally {
      await project.cleanup();
    }
  });
});
