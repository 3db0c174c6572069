import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readStored } from '../../../src/cli/recheck-run.js';
import { caseKey, StoredMatch } from '../../../src/run/recheck/match.js';
import { TodaysCases } from '../../../src/run/recheck/todays-cases.js';
import { type PlannedCaseGroup, planCases } from '../../../src/run/plan.js';
import { planLine } from '../../../src/run/plan-records.js';
import { readJournal } from '../../../src/stored/journal/read.js';
import { JOURNAL_VERSION, type PlanRecord, type RunRecord } from '../../../src/stored/journal/records.js';
import { parseSuite } from '../../../src/suite/parse.js';
import type { Suite } from '../../../src/suite/types.js';
import { sampleResult } from '../../helpers/results.js';

const cases = ['a', 'b', 'c', 'd']
  .map((id) => `  - id: ${id}\n    prompt: "Question ${id}?"\n    expect: [{ contains: x }]\n`)
  .join('');
const parsed = parseSuite(
  `suite: refunds\nservice: router\nmodel: openai/gpt-4o-mini\ncases:\n${cases}`,
  'suites/refunds.yaml',
);
const suite = parsed.value as Suite;

const RUN: RunRecord = {
  type: 'run',
  journal_version: JOURNAL_VERSION,
  id: 'R1',
  started_at: '2026-01-01T00:00:00.000Z',
  command: ['driftcheck', 'run'],
  driftcheck_version: 'test',
  sim: true,
  candidate_model: null,
  shard: null,
  complete: true,
};

describe("TodaysCases: today's planned case of each stored sample", () => {
  let dir: string;
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("reads today's plan once, whatever the order of the stored samples, a case's samples sent again included", async () => {
    dir = await mkdtemp(join(tmpdir(), 'todays-cases-'));
    const file = join(dir, 'results.jsonl');
    const today = planCases([suite]);
    const line = await planLine(
      today,
      () => null,
      () => {},
    );
    // Backwards, b's first sample not run (a stop) before its answer, and c's and a's samples
    // sent again at the end, in decreasing plan order (a resumed run's, a merged folder's).
    const samples = [
      sampleResult({ case: 'b', status: 'not_run' }),
      ...['d', 'c', 'b', 'a', 'c', 'a'].map((id) => sampleResult({ case: id })),
    ];
    const end = { type: 'end', finished_at: '2026-01-01T00:00:01.000Z', status: 'completed', stop: null };
    await writeFile(
      file,
      [
        JSON.stringify(RUN),
        Buffer.concat(line!).toString(),
        ...[...samples, end].map((r) => JSON.stringify(r)),
      ]
        .join('\n')
        .concat('\n'),
    );
    const stored = await readStored(file);
    const match = new StoredMatch(stored.run);
    await planLine(
      today,
      () => null,
      () => {},
      {
        sent: false,
        each: (group, made, record: PlanRecord) => match.add(record, made, group.case.messages),
      },
    );
    expect([...match.rechecked.keys()]).toEqual(['refunds/a', 'refunds/b', 'refunds/c', 'refunds/d']);

    let reads = 0;
    const todays = new TodaysCases(
      async function* () {
        reads++;
        yield* today;
      },
      match.rechecked,
      (g: PlannedCaseGroup) => caseKey(g.suite.suite, g.case.id),
    );
    const found: string[] = [];
    for await (const sample of readJournal(file)) {
      if (sample.type !== undefined) continue;
      const key = caseKey(sample.suite, sample.case);
      found.push((await todays.take(key, match.rechecked.get(key)!)).case.id);
    }
    await todays.close();
    // Each sample its own case, and today's plan read once: a case is held until its last sample.
    expect(found).toEqual(samples.map((s) => s.case));
    expect(reads).toBe(1);
  });

  it('finds the case of a sample the first read did not count (a journal still written), reading the plan again', async () => {
    const today = planCases([suite]);
    const wanted = new Map(
      today.map((g) => [
        caseKey(g.suite.suite, g.case.id),
        { asked: null, sameBaseline: false, ordinal: g.ordinal, samples: 1 },
      ]),
    );
    let reads = 0;
    const todays = new TodaysCases(
      async function* () {
        reads++;
        yield* today;
      },
      wanted,
      (g: PlannedCaseGroup) => caseKey(g.suite.suite, g.case.id),
    );
    // One counted sample of each, then c's and a's again, counted by no one.
    const order = ['d', 'c', 'b', 'a', 'c', 'a'];
    const found: string[] = [];
    for (const id of order) {
      const key = caseKey('refunds', id);
      found.push((await todays.take(key, wanted.get(key)!)).case.id);
    }
    await todays.close();
    expect(found).toEqual(order);
    expect(reads).toBe(3);
  });
});
