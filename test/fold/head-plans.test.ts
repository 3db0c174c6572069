import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HeadPlans } from '../../src/fold/head-plans.js';
import type { JournalRecord, PlanRecord, RunRecord } from '../../src/stored/journal/records.js';
import { sampleResult } from '../helpers/results.js';

const run = (index: number): RunRecord => ({
  type: 'run',
  journal_version: 4,
  id: `20261125T000000000Z-000${index}`,
  started_at: '2026-11-25T00:00:00.000Z',
  command: ['driftcheck', 'run'],
  driftcheck_version: 'test',
  sim: true,
  candidate_model: null,
  shard: { index, total: 2 },
  complete: false,
});

const plan = (suite: string, cases: [string, number][]): PlanRecord => ({
  type: 'plan',
  suite,
  file: `suites/${suite}.yaml`,
  service: 'router',
  requested_model: 'openai/gpt-4o-mini',
  cases: cases.map(([id, ordinal]) => ({
    id,
    ordinal,
    repeat: 1,
    messages: [{ role: 'user', content: id }],
  })),
});

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'driftcheck-head-plans-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function journal(name: string, records: JournalRecord[]): Promise<string> {
  const file = join(dir, `${name}.jsonl`);
  await writeFile(file, records.map((r) => `${JSON.stringify(r)}\n`).join(''));
  return file;
}

/** The suite and journal of each record `through` hands over, in order. */
async function handed(plans: HeadPlans, suite: string | null): Promise<string[]> {
  const out: string[] = [];
  await plans.through(suite, (j, p) => out.push(`${p.suite}@${j}:${p.cases.map((c) => c.id).join(',')}`));
  return out;
}

describe('the plans at the heads of journals folded side by side', () => {
  it("hands each suite's records from every journal in plan order, only up to the suite asked for", async () => {
    // Shard 2 lists b before a in its head; the plan (ordinals) puts a first.
    const files = [
      await journal('s1', [
        run(1),
        plan('a', [['a1', 0]]),
        plan('b', [['b1', 2]]),
        plan('c', [['c1', 4]]),
        sampleResult({ suite: 'a', case: 'a1' }),
      ]),
      await journal('s2', [
        run(2),
        plan('b', [['b2', 3]]),
        plan('a', [['a2', 1]]),
        plan('c', [['c2', 5]]),
        sampleResult({ suite: 'b', case: 'b2' }),
      ]),
    ];
    const runs: string[] = [];
    const plans = await HeadPlans.index(files, (j, r) => runs.push(`${j}:${r.id}`));
    expect(runs).toEqual(['0:20261125T000000000Z-0001', '1:20261125T000000000Z-0002']);
    expect(plans.planned()).toBe(6);
    expect(plans.waits('a')).toBe(true);
    expect(await handed(plans, 'a')).toEqual(['a@0:a1', 'a@1:a2']);
    expect(plans.planned()).toBe(4);
    expect(plans.waits('a')).toBe(false);
    expect(plans.waits('b')).toBe(true);
    expect(await handed(plans, 'b')).toEqual(['b@0:b1', 'b@1:b2']);
    // The rest at the end: suites no sample reached.
    expect(await handed(plans, null)).toEqual(['c@0:c1', 'c@1:c2']);
    expect(plans.planned()).toBe(0);
    expect(plans.waits('c')).toBe(false);
  });

  it('counts a case planned by two journals once (the same folder given twice)', async () => {
    const records = [
      run(1),
      plan('a', [
        ['a1', 0],
        ['a2', 1],
      ]),
      plan('b', [['b1', 2]]),
    ];
    const file = await journal('twice', records);
    const plans = await HeadPlans.index([file, file], () => {});
    expect(plans.planned()).toBe(3);
    expect(await handed(plans, 'a')).toEqual(['a@0:a1,a2', 'a@1:a1,a2']);
    expect(plans.planned()).toBe(1);
  });

  it('holds back a suite in no head until every planned suite is handed over, as the fold puts it last', async () => {
    const file = await journal('unplanned', [run(1), plan('a', [['a1', 0]]), plan('b', [['b1', 1]])]);
    const plans = await HeadPlans.index([file], () => {});
    expect(plans.waits('stray')).toBe(true);
    expect(await handed(plans, 'stray')).toEqual(['a@0:a1', 'b@0:b1']);
    expect(plans.waits('stray')).toBe(false);
  });

  it('refuses a journal whose head changed between its two reads', async () => {
    const file = await journal('changing', [run(1), plan('a', [['a1', 0]]), plan('b', [['b1', 1]])]);
    const plans = await HeadPlans.index([file], () => {});
    await writeFile(file, `${JSON.stringify(run(1))}\n`);
    await expect(handed(plans, 'b')).rejects.toThrow(/the journal changed while it was read/);
  });
});
