import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptReport } from '../../src/baseline/accept.js';
import { baselineFromEntries } from '../../src/baseline/build.js';
import { readBaseline, writeBaseline } from '../../src/stored/baseline/store.js';
import { SPILL_HOLD } from '../../src/fold/spill.js';
import type { StoredReport } from '../../src/stored/report/read.js';
import type { Baseline } from '../../src/stored/baseline/types.js';
import type { CaseEntry } from '../../src/stored/report/types.js';
import { makeEntry, reportOf } from '../helpers/entries.js';
import { baselineCase } from './fixtures.js';

// Accepting a run streams: each entry's baseline case is put aside as it comes (on disk past
// SPILL_HOLD), and the previous baseline is read case by case from its file. What it writes
// must be, byte for byte, what the whole-object path (baselineFromEntries, writeBaseline) writes.
describe('acceptReport over a large suite and a large previous baseline', () => {
  let dir: string;
  const RUN = 5_000;
  // Ids that sort apart as text and as numbers ("10" before "9" as text; first as integers).
  const runIds = [...Array.from({ length: RUN - 3 }, (_, i) => `case-${i}`), '10', '9', '__proto__'];
  // Half the previous cases are run again, half are not (kept as they were).
  const previousIds = [...Array.from({ length: RUN }, (_, i) => `case-${i * 2}`), 'older-only', '9'];
  const entries: CaseEntry[] = runIds.map((id, i) =>
    makeEntry({ case: id, suite: 'refunds', content: `tonight's answer ${i}`, latency_ms: 100 + (i % 7) }),
  );
  const previous: Baseline = {
    schema_version: 1,
    suite: 'refunds',
    service: 'router',
    model: 'openai/gpt-4o-mini',
    source_run: 'r0',
    cases: Object.fromEntries(
      previousIds.map((id, i) => [id, baselineCase({ content: `last night ${i} ${'x'.repeat(900)}` })]),
    ),
  };
  const report = reportOf(entries);
  report.run = { ...report.run, sim: false, provenance: { ...report.run.provenance!, sim: false } };
  const stored = (cases: CaseEntry[]): StoredReport => ({
    file: 'report.json',
    head: { ...report, cases: undefined } as unknown as StoredReport['head'],
    async *cases() {
      yield* cases;
    },
  });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'driftcheck-accept-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const expected = async (only?: string[]) => {
    const whole = join(dir, 'whole');
    await writeBaseline(
      whole,
      baselineFromEntries({
        suite: 'refunds',
        service: entries[0]!.service,
        model: report.suites[0]!.requested_model,
        run_id: report.run.id,
        cases: entries,
        previous,
        ...(only ? { only } : {}),
      }),
    );
    return readFile(join(whole, 'refunds.json'), 'utf8');
  };

  it.each([
    ['every case', undefined],
    ['some cases (baseline accept --case)', ['case-4', '10', 'case-4999', 'not-run']],
  ])('writes what the whole-object path writes: %s', async (_, only) => {
    const streamed = join(dir, `streamed-${only ? 'some' : 'all'}`);
    await writeBaseline(streamed, previous);
    // The previous baseline is large enough to be walked, and the run's cases to go to disk.
    expect((await stat(join(streamed, 'refunds.json'))).size).toBeGreaterThan(4 * 2 ** 20);
    expect(RUN).toBeGreaterThan(SPILL_HOLD);
    const written = await acceptReport(
      streamed,
      stored(entries),
      only ? new Map([['refunds', only]]) : undefined,
    );
    expect(written).toEqual([join(streamed, 'refunds.json')]);
    const text = await readFile(written[0]!, 'utf8');
    expect(text).toBe(await expected(only));
    const read = (await readBaseline(streamed, 'refunds'))!;
    expect(read.source_run).toBe(report.run.id);
    expect(read.cases['older-only']?.content).toMatch(/^last night/);
    expect(read.cases['9']?.content).toBe(
      only ? previous.cases['9']!.content : `tonight's answer ${RUN - 2}`,
    );
    const taken = only ? only.filter((id) => runIds.includes(id)) : runIds;
    expect(Object.keys(read.cases)).toHaveLength(new Set([...previousIds, ...taken]).size);
  });

  it('writes a new baseline when there is none, and a case the report holds twice once, the later one', async () => {
    const fresh = join(dir, 'fresh');
    const twice = [...entries.slice(0, 3), { ...entries[1]!, content: 'again' }];
    await acceptReport(fresh, stored(twice));
    const read = (await readBaseline(fresh, 'refunds'))!;
    expect(Object.keys(read.cases)).toEqual(['case-0', 'case-1', 'case-2']);
    expect(read.cases['case-1']?.content).toBe('again');
  });
});
