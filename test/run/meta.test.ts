import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findResumableRun, newRunId, RUN_ID_PATTERN } from '../../src/run/meta.js';
import { reportTop } from '../../src/report/json.js';
import type { Report, ReportHead } from '../../src/stored/report/types.js';
import { sampleResult } from '../helpers/results.js';

let dir: string;
afterEach(() => rm(dir, { recursive: true, force: true }));

async function run(id: string, status: Report['run']['status'] | null, cases = 1): Promise<string> {
  const runDir = join(dir, id);
  await mkdir(runDir, { recursive: true });
  await writeFile(join(runDir, 'run.json'), '{}');
  if (status) {
    const head = {
      schema_version: 2,
      // A long command line (after the status, as the fold orders it) cannot hide the status.
      run: { id, status, command: Array.from({ length: 20_000 }, (_, i) => `suites/s${i}.yaml`) },
      summary: {},
      suites: [],
    } as unknown as ReportHead;
    const lines = Array.from(
      { length: cases },
      (_, i) => `\n    ${JSON.stringify(sampleResult({ case: `c${i}` }))}`,
    );
    await writeFile(join(runDir, 'report.json'), `${reportTop(head)}${lines.join(',')}\n  ]\n}\n`);
  }
  return runDir;
}

describe('findResumableRun', () => {
  it('picks the newest run that did not complete, reading only the head of each report', async () => {
    dir = await mkdtemp(join(tmpdir(), 'driftcheck-meta-'));
    await run('20261120T000000Z-aaaa', 'paused');
    const interrupted = await run('20261121T000000Z-bbbb', 'interrupted');
    await run('20261122T000000Z-cccc', 'completed', 5000);
    expect(await findResumableRun(dir)).toBe(interrupted);
  });

  it('orders runs started within one second by their start (run ids carry milliseconds)', async () => {
    dir = await mkdtemp(join(tmpdir(), 'driftcheck-meta-'));
    const second = Date.parse('2026-11-22T08:14:27Z');
    // Random suffixes would decide the order of two ids in one second; the milliseconds must.
    const ids = Array.from({ length: 20 }, (_, i) => newRunId(new Date(second + i * 37)));
    expect([...ids].sort()).toEqual(ids);
    expect(ids.every((id) => RUN_ID_PATTERN.test(id))).toBe(true);
    expect(ids[0]).toMatch(/^20261122T081427000Z-[0-9a-f]{4}$/);
    await run(ids[0]!, 'paused');
    const newer = await run(ids[1]!, 'paused');
    expect(await findResumableRun(dir)).toBe(newer);
  });

  it('takes a run killed before its report was written, and finds none when all completed', async () => {
    dir = await mkdtemp(join(tmpdir(), 'driftcheck-meta-'));
    await run('20261121T000000Z-aaaa', 'completed');
    expect(await findResumableRun(dir)).toBeNull();
    const killed = await run('20261122T000000Z-bbbb', null);
    expect(await findResumableRun(dir)).toBe(killed);
  });
});
