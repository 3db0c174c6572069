import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  journalPlanLines,
  type JournalReadStats,
  readJournal,
  readJournalPlans,
  readPlanAt,
} from '../../../src/stored/journal/read.js';
import { journalPlan, type PlanRecord } from '../../../src/stored/journal/records.js';
import { openJournal } from '../../../src/stored/journal/write.js';
import { sampleResult } from '../../helpers/results.js';

async function keysOf(file: string, stats: JournalReadStats = { skipped: [] }): Promise<string[]> {
  const keys: string[] = [];
  for await (const record of readJournal(file, stats)) if (record.type === undefined) keys.push(record.key);
  return keys;
}

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'driftcheck-journal-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const line = (n: number) => JSON.stringify(sampleResult({ suite: 's', case: `c${n}` }));
const turn = () => new Promise((done) => setImmediate(done));

describe('journal', () => {
  it("writes a turn's lines at the end of that turn, in order, and every pending line on close", async () => {
    const file = join(dir, 'a.jsonl');
    const journal = openJournal(file);
    journal.appendLine(line(1));
    journal.appendLine(line(2));
    expect(readFileSync(file, 'utf8')).toBe(''); // still this turn
    await turn();
    expect(readFileSync(file, 'utf8')).toBe(`${line(1)}\n${line(2)}\n`);
    journal.appendLine(line(3));
    journal.close(); // no turn in between: close writes it
    expect(readFileSync(file, 'utf8')).toBe(`${line(1)}\n${line(2)}\n${line(3)}\n`);
    await turn(); // the timer was cleared: nothing is written twice, nothing throws on the closed fd
    expect(await keysOf(file)).toEqual(['s/c1#0', 's/c2#0', 's/c3#0']);
  });

  it('appends after a torn last line (resume after kill -9) without gluing the new line to it', async () => {
    const file = join(dir, 'b.jsonl');
    await writeFile(file, `${line(1)}\n{"key":"s/c2#0","sta`);
    const journal = openJournal(file);
    journal.appendLine(line(3));
    journal.flush();
    journal.close();
    const stats = { skipped: [] as number[] };
    // The torn sample runs again; the line written after it starts on a line of its own.
    expect(await keysOf(file, stats)).toEqual(['s/c1#0', 's/c3#0']);
    expect(stats.skipped).toEqual([2]);
  });

  it('reads records by type, passes over foreign lines with their numbers, and finds its head', async () => {
    const file = join(dir, 'c.jsonl');
    const run = {
      type: 'run',
      journal_version: 2,
      id: 'r',
      started_at: 't',
      command: [],
      driftcheck_version: 'x',
      sim: false,
      candidate_model: null,
      shard: null,
      complete: true,
    };
    const plan = { type: 'plan', suite: 's', file: 'f', service: 'router', requested_model: 'm', cases: [] };
    await writeFile(
      file,
      [
        JSON.stringify(run),
        JSON.stringify(plan),
        'not json',
        '{"type":"other"}',
        line(1),
        JSON.stringify({ type: 'end', finished_at: 't', status: 'completed', stop: null }),
      ].join('\n'),
    );
    const stats = { skipped: [] as number[] };
    const types: (string | undefined)[] = [];
    for await (const record of readJournal(file, stats)) types.push(record.type ?? 'sample');
    expect(types).toEqual(['run', 'plan', 'sample', 'end']);
    expect(stats.skipped).toEqual([3, 4]);
    const head = await readJournalPlans(file);
    expect(head.run?.id).toBe('r');
    expect(head.plans.map((p) => p.suite)).toEqual(['s']);
  });

  it('passes over a record whose fields have the wrong types, saying which line and which field', async () => {
    const file = join(dir, 'd.jsonl');
    const wrong = { ...sampleResult({ suite: 's', case: 'c2' }), model: 42 };
    const plan = {
      type: 'plan',
      suite: 's',
      file: 'f',
      service: 'router',
      requested_model: 'm',
      cases: [null],
    };
    await writeFile(file, [line(1), JSON.stringify(wrong), JSON.stringify(plan), line(3)].join('\n'));
    const stats: JournalReadStats = { skipped: [] };
    expect(await keysOf(file, stats)).toEqual(['s/c1#0', 's/c3#0']);
    expect(stats.skipped).toEqual([2, 3]);
    expect(stats.malformed).toEqual([
      { line: 2, problem: "'model' must be text or empty, got an integer" },
      { line: 3, problem: "'cases[0]' must be a mapping, got nothing (an empty value)" },
    ]);
  });

  it('reads a missing journal as an empty one', async () => {
    expect(await keysOf(join(dir, 'none.jsonl'))).toEqual([]);
  });

  it('writes pending lines at once past a megabyte, before the turn ends', async () => {
    const file = join(dir, 'big.jsonl');
    const journal = openJournal(file);
    const big = JSON.stringify({
      key: 's/big#0',
      suite: 's',
      case: 'big',
      status: 'pass',
      content: 'x'.repeat(1 << 20),
    });
    journal.appendLine(line(1));
    expect(readFileSync(file, 'utf8')).toBe('');
    journal.appendLine(big);
    expect(readFileSync(file, 'utf8')).toBe(`${line(1)}\n${big}\n`);
    journal.close();
  });
});

describe('plan records wherever they are (journal 5)', () => {
  it('are found in one pass, each read again from its line; a sample that quotes a plan is not one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'driftcheck-plans-'));
    try {
      const file = join(dir, 'results.jsonl');
      const plan = (suite: string): PlanRecord => ({
        type: 'plan',
        suite,
        file: `${suite}.yaml`,
        service: 'router',
        requested_model: 'a/b',
        cases: [{ id: 'c1', ordinal: 0, repeat: 1, row: [0, 2] }],
      });
      // A sample whose answer holds the text of a plan record, as a hostile service might send.
      const quoting = { ...sampleResult({ suite: 'a', case: 'c1' }), content: JSON.stringify(plan('x')) };
      const lines = [
        JSON.stringify({
          type: 'run',
          journal_version: 5,
          id: 'r',
          started_at: '2026-11-25T00:00:00Z',
          command: [],
          driftcheck_version: 'test',
          sim: false,
          candidate_model: null,
          shard: null,
          complete: true,
        }),
        JSON.stringify(plan('a')),
        JSON.stringify(quoting),
        '{"type":"plan" torn',
        JSON.stringify(plan('b')),
        JSON.stringify(sampleResult({ suite: 'b', case: 'c1' })),
      ];
      await writeFile(file, `${lines.join('\r\n')}\n`);
      const { run, plans } = await readJournalPlans(file);
      expect(run?.id).toBe('r');
      expect(plans.map((p) => p.suite)).toEqual(['a', 'b']);
      const found = [];
      for await (const f of journalPlanLines(file)) found.push(f);
      expect(found.map((f) => f.record.type)).toEqual(['run', 'plan', 'plan']);
      const last = found[2]!;
      expect(await readPlanAt(file, last.offset, last.length)).toEqual(plan('b'));
      // The place of a sample's line is no plan.
      expect(await readPlanAt(file, found[1]!.offset + found[1]!.length + 2, 20)).toBeNull();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('a file that is no journal', () => {
  it('is refused after 10,000 lines that are not records, before their numbers fill memory', async () => {
    const file = join(dir, 'foreign.jsonl');
    await writeFile(file, 'y\n'.repeat(10_001));
    await expect(keysOf(file)).rejects.toThrow(/more than 10000 lines are not journal records/);
    await writeFile(file, 'y\n'.repeat(10_000));
    expect(await keysOf(file)).toEqual([]);
  });
});

describe('plan records', () => {
  const system = 'You are a support agent. '.repeat(100);
  const plan: PlanRecord = {
    type: 'plan',
    suite: 's',
    file: 's.yaml',
    service: 'router',
    requested_model: 'm',
    system,
    cases: ['a', 'b', 'c'].map((id, ordinal) => ({
      id,
      ordinal,
      repeat: 1,
      messages: [
        { role: 'system' as const, content: system },
        { role: 'user' as const, content: `question ${id}` },
      ],
    })),
  };

  it('hold the system prompt once (journal version 3) and read back with it in front of every case', async () => {
    const file = join(dir, 'v3.jsonl');
    const journal = openJournal(file);
    journal.appendRecord(journalPlan(plan));
    journal.close();
    expect(readFileSync(file, 'utf8').split(system)).toHaveLength(2);
    const { plans } = await readJournalPlans(file);
    expect(plans[0]!.cases).toEqual(plan.cases);
  });

  it('of journal version 2, each case with its whole messages, read as they are', async () => {
    const file = join(dir, 'v2.jsonl');
    const { system: _system, ...v2 } = plan;
    await writeFile(file, `${JSON.stringify(v2)}\n`);
    const { plans } = await readJournalPlans(file);
    expect(plans[0]!.cases).toEqual(plan.cases);
  });
});
