import { cp, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Baseline } from '../../src/stored/baseline/types.js';
import { copyFromRepo, makeProject, readRawReport, readReport, runDirFrom } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';
import { reportSchemaErrors } from '../helpers/report-schema.js';
import { embedded } from '../report/fixture.js';

const V2_RUN = fileURLToPath(new URL('../fixtures/report-v2', import.meta.url));
const CASES = 300;
const FAILING = [50, 150, 250];

/** CASES cases whose answers are `answer N of the batch`; the FAILING ones expect what is never said. */
function batchSuite(): string {
  const lines = [
    'suite: batch',
    'service: router',
    'model: openai/gpt-4o-mini',
    'system: "You repeat what you are told."',
    'cases:',
  ];
  for (let n = 1; n <= CASES; n++) {
    lines.push(`  - id: case-${n}`, `    prompt: "Say exactly: answer ${n} of the batch"`, '    expect:');
    lines.push(FAILING.includes(n) ? '      - contains: "never said"' : `      - contains: "answer ${n} "`);
  }
  return `${lines.join('\n')}\n`;
}

describe('reports the size of what people review', () => {
  it('report.html and junit.xml carry failing cases in full and passing ones as rows; report.json stays whole', async () => {
    const project = await makeProject({ 'suites/batch.yaml': batchSuite() });
    try {
      await copyFromRepo(project.dir, 'driftcheck.config.yaml');
      const run = await runMain(['run', '--sim', '--reporter', 'json,html,junit'], { cwd: project.dir });
      expect(run.code, run.stderr).toBe(1);
      const dir = runDirFrom(run, project.dir);

      const html = await readFile(join(dir, 'report.html'), 'utf8');
      const page = embedded(html) as unknown as { cases: Record<string, unknown>[] };
      const failing = page.cases.filter((c) => !c.brief);
      expect(failing.map((c) => c.id)).toEqual(FAILING.map((n) => `batch/case-${n}`));
      for (const c of failing) {
        expect(c).toMatchObject({
          status: 'fail',
          content: expect.stringMatching(/^answer \d+ of the batch/),
        });
        expect(c.messages).toEqual([{ role: 'user', content: expect.stringContaining('Say exactly') }]);
      }
      const brief = page.cases.filter((c) => c.brief);
      expect(brief).toHaveLength(CASES - FAILING.length);
      expect(Object.keys(brief[0]!).sort()).toEqual(
        ['brief', 'id', 'latency_ms', 'model', 'new_case', 'passed', 'sent', 'tokens'].sort(),
      );
      // Passing answers are not on the page; the note says where they are.
      expect(html).not.toContain('answer 7 of the batch');
      expect(html).toContain('answer 50 of the batch');
      expect(html).toContain('297 of 300 cases passed every sample with nothing changed');
      expect(html).toContain('in report.json beside this page, and every sample in results.jsonl');
      // The suite's system prompt once, not once per case shown.
      expect(html.split('You repeat what you are told.')).toHaveLength(2);

      const junit = await readFile(join(dir, 'junit.xml'), 'utf8');
      expect(junit.match(/<failure /g)).toHaveLength(FAILING.length);
      expect(junit).toMatch(/<testcase name="case-7" classname="batch" time="[\d.]+" file="[^"]+"\/>/);
      expect(junit).not.toContain('answer 7 of the batch');
      expect(junit).toContain('answer 50 of the batch');

      // report.json: valid against the shipped schema, no larger than the journal, and every
      // reader still gets each whole case (the system prompt back in front).
      const raw = await readRawReport(dir);
      expect(raw.schema_version).toBe(3);
      expect(reportSchemaErrors(raw)).toEqual([]);
      const [jsonBytes, journalBytes] = await Promise.all(
        ['report.json', 'results.jsonl'].map(async (f) => (await stat(join(dir, f))).size),
      );
      expect(jsonBytes).toBeLessThanOrEqual(journalBytes!);
      const report = await readReport(dir);
      expect(report.cases[6]).toMatchObject({
        id: 'batch/case-7',
        status: 'pass',
        detail: 'brief',
        content: 'answer 7 of the batch',
        samples: { planned: 1, sent: 1, passed: 1, failed: 0, errored: 0, not_run: 0 },
        messages: [
          { role: 'system', content: 'You repeat what you are told.' },
          { role: 'user', content: 'Say exactly: answer 7 of the batch' },
        ],
      });

      // A baseline accepted from it keeps every passing answer.
      const accept = await runMain(['baseline', 'accept', dir, '--force'], { cwd: project.dir });
      expect(accept.code, accept.stderr).toBe(0);
      const baseline = JSON.parse(
        await readFile(join(project.dir, 'baselines', 'batch.json'), 'utf8'),
      ) as Baseline;
      expect(baseline.cases['case-7']).toMatchObject({ status: 'pass', content: 'answer 7 of the batch' });
      expect(Object.keys(baseline.cases)).toHaveLength(CASES);
    } finally {
      await project.cleanup();
    }
  }, 120_000);

  it('a run folder of schema 2 (written before schema 3) is still read by diff, baseline accept, history add and merge', async () => {
    const project = await makeProject({});
    try {
      await copyFromRepo(project.dir, 'driftcheck.config.yaml');
      await cp(join(V2_RUN, 'suites'), join(project.dir, 'suites'), { recursive: true });
      const old = join(project.dir, 'reports', 'old');
      await cp(join(V2_RUN, 'run'), old, { recursive: true });
      expect(JSON.parse(await readFile(join(old, 'report.json'), 'utf8')).schema_version).toBe(2);

      const now = await runMain(['run', '--sim', '--reporter', 'json'], { cwd: project.dir });
      expect(now.code, now.stderr).toBe(1);
      const diff = await runMain(['diff', old, runDirFrom(now, project.dir)], { cwd: project.dir });
      expect(diff.stderr).not.toMatch(/internal error|schema/);
      expect(diff.code, diff.stderr).toBe(0);
      expect(diff.stdout).toMatch(/^0 of 4 case\(s\) differ/);

      const accept = await runMain(['baseline', 'accept', old, '--force'], { cwd: project.dir });
      expect(accept.code, accept.stderr).toBe(0);
      const baseline = JSON.parse(
        await readFile(join(project.dir, 'baselines', 'support.json'), 'utf8'),
      ) as Baseline;
      expect(baseline.cases['refund-window']).toMatchObject({
        status: 'pass',
        content: 'Refunds are accepted within 30 days of purchase.',
      });
      expect(baseline.cases.warranty?.samples).toEqual({ pass: 3, total: 3 });

      const history = join(project.dir, 'history');
      const add = await runMain(['history', 'add', history, old, '--force'], { cwd: project.dir });
      expect(add.code, add.stderr).toBe(0);
      const stored = (await readdir(history, { recursive: true })).filter((f) => f.endsWith('.jsonl'));
      const lines = (await Promise.all(stored.map((f) => readFile(join(history, f), 'utf8')))).join('');
      for (const id of ['refund-window', 'greeting', 'shipping', 'warranty']) expect(lines).toContain(id);

      const out = join(project.dir, 'merged');
      const merge = await runMain(['merge', old, '--out', out, '--reporter', 'json'], { cwd: project.dir });
      expect(merge.code, merge.stderr).toBe(1);
      const merged = await readReport(out);
      expect(merged.schema_version).toBe(3);
      expect(merged.cases.map((c) => [c.case, c.status])).toEqual([
        ['refund-window', 'pass'],
        ['greeting', 'pass'],
        ['shipping', 'fail'],
        ['warranty', 'pass'],
      ]);
      expect(merged.cases[0]!.messages[0]).toEqual({
        role: 'system',
        content: 'You answer for ACME support, briefly.',
      });
    } finally {
      await project.cleanup();
    }
  }, 120_000);
});
