import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SPILL_HOLD } from '../../src/fold/spill.js';
import { makeProject, readReport, runDirFrom } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';

// One suite over one table with more rows than the fold holds in memory: its complete
// cases wait on disk for the suite's verdicts, and come back to the reporters one at a time.
const ROWS = SPILL_HOLD + 300;
const SUITE = `suite: big
service: router
model: openai/gpt-4o-mini
params: { max_tokens: 64, temperature: 0 }
tables:
  - path: ../data/rows.jsonl
    case:
      id: "row-{{n}}"
      prompt: "Say exactly: row {{n}}"
      expect: [{ equals: "row {{n}}" }]
      sim: "{{sim}}"
`;
const CHANGED = new Set([7, ROWS - 5]);
const table = (changed: boolean) =>
  Array.from({ length: ROWS }, (_, n) =>
    JSON.stringify({ n, sim: changed && CHANGED.has(n) ? { reply: 'something else' } : {} }),
  ).join('\n');

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

describe('a suite larger than the fold holds in memory', () => {
  it('reports every case in plan order with its drift, leaves no spill behind, and report re-renders the same', async () => {
    const p = await makeProject({ 'suites/big.yaml': SUITE, 'data/rows.jsonl': `${table(false)}\n` });
    cleanups.push(p.cleanup);
    const { dir } = p;
    const first = await runMain(['run', '--sim'], { cwd: dir });
    expect(first.code).toBe(0);
    const accept = await runMain(['baseline', 'accept', runDirFrom(first, dir), '--force'], { cwd: dir });
    expect(accept.code).toBe(0);

    await writeFile(join(dir, 'data/rows.jsonl'), `${table(true)}\n`);
    const second = await runMain(['run', '--sim'], { cwd: dir });
    expect(second.code).toBe(1);
    const runDir = runDirFrom(second, dir);
    const report = await readReport(runDir);
    expect(report.cases.map((c) => c.case)).toEqual(Array.from({ length: ROWS }, (_, n) => `row-${n}`));
    // Each entry carries its own prompt back from the plan, beyond the cases held in memory too.
    for (const n of [5, ROWS - 1])
      expect(report.cases[n]!.messages).toEqual([{ role: 'user', content: `Say exactly: row ${n}` }]);
    const failing = report.cases.filter((c) => c.status !== 'pass');
    expect(failing.map((c) => [c.case, c.drift.map((d) => d.kind)])).toEqual(
      [...CHANGED].map((n) => [`row-${n}`, ['regressed', 'content_changed']]),
    );
    // Every other case was compared with its baseline answer, found the same, and is brief.
    expect(report.cases.filter((c) => c.drift.length > 0).length).toBe(CHANGED.size);
    expect(report.cases.filter((c) => c.detail === 'brief').length).toBe(ROWS - CHANGED.size);
    expect(report.summary).toMatchObject({ cases: ROWS, passed: ROWS - 2, failed: 2, regressed: 2 });
    expect(report.suites[0]).toMatchObject({ cases: ROWS, baseline: 'baselines/big.json' });
    expect(report.suites[0]!.usage.run.samples).toBe(ROWS);
    const junit = await readFile(join(runDir, 'junit.xml'), 'utf8');
    expect(junit).toContain(`<testsuite name="big" tests="${ROWS}" failures="2" errors="0" skipped="0"`);
    expect(junit.match(/<testcase /g)?.length).toBe(ROWS);
    expect((await readdir(runDir)).filter((n) => n.startsWith('.'))).toEqual([]);

    // A recheck of it folds in its own folder as a run does, and leaves no spill there either.
    const rechecked = await runMain(['recheck', runDir], { cwd: dir });
    expect(rechecked.code, rechecked.stderr).toBe(1);
    const recheckDir = runDirFrom(rechecked, dir);
    const recheckReport = await readReport(recheckDir);
    expect(recheckReport.cases.map((c) => [c.case, c.status])).toEqual(
      report.cases.map((c) => [c.case, c.status]),
    );
    expect((await readdir(recheckDir)).filter((n) => n.startsWith('.'))).toEqual([]);

    const again = await runMain(['report', runDir], { cwd: dir });
    expect(again.code).toBe(1);
    const rendered = await readReport(runDir);
    expect(rendered.cases).toEqual(report.cases);
    expect(rendered.suites).toEqual(report.suites);
  }, 120_000);
});
