import { execFileSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { noBaselineOr, readBaseline, writeBaseline } from '../../../src/stored/baseline/store.js';
import { FigureColumns } from '../../../src/stored/baseline/figure-columns.js';
import { FileError } from '../../../src/util/errors.js';
import { SuiteBaseline } from '../../../src/stored/baseline/suite-baseline.js';
import type { Baseline, BaselineCase } from '../../../src/stored/baseline/types.js';
import { baselineCase } from '../../baseline/fixtures.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'driftcheck-suite-baseline-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const baseline = (): Baseline => ({
  schema_version: 1,
  suite: 'refunds',
  service: 'router',
  model: 'openai/gpt-4o-mini',
  source_run: 'r1',
  cases: {
    plain: baselineCase(),
    repeated: baselineCase({
      samples: { pass: 7, total: 10 },
      latency_ms: { n: 10, p50: 400, p95: 900, sample: [300, 400, 900] },
    }),
    'tricky "}{][': baselineCase({ content: 'a } b { c ] d [ e \\" f \u00fc \u4e16 \\\\' }),
    ['__proto__']: baselineCase({ status: 'error', error_kind: 'timeout', content: null, usage: null }),
    '2': baselineCase({ content: '2' }),
    priced: baselineCase({
      usage: { prompt_tokens: 3, completion_tokens: null, total_tokens: 7, cost: 0.0021 },
      samples: { pass: 0, total: 3 },
      status: 'fail',
    }),
    unpriced: baselineCase({
      usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3, cost: null },
    }),
    // A stored value of a field judged over the suite (tool use): kept beside the columns.
    tooled: baselineCase({
      tool_calls: {
        answered: 3,
        triggered: 3,
        valid: 2,
        trigger_rate: 1,
        valid_rate: 2 / 3,
        first: null,
        distinct: [],
        other_calls: 0,
      },
    } as Partial<BaselineCase>),
  },
});

async function both(text: string) {
  await writeFile(join(dir, 'refunds.json'), text);
  const whole = await readBaseline(dir, 'refunds').catch((e: Error) => e);
  const cased = await SuiteBaseline.read(dir, 'refunds', 0).catch((e: Error) => e);
  return { whole, cased };
}

describe('SuiteBaseline.read', () => {
  it("reads a large baseline's cases again from the file, in any order, and refuses a file replaced since", async () => {
    const many: Baseline = { ...baseline(), cases: {} };
    // Past several 64 KB windows, with long cases and a multi-byte character in each.
    for (let i = 0; i < 300; i++)
      many.cases[`case-${i}`] = baselineCase({ content: `answer ${i} — ${'x'.repeat(i * 7)} 世界` });
    await writeBaseline(dir, many);
    const cased = (await SuiteBaseline.read(dir, 'refunds', 0))!;
    const ids = Object.keys(many.cases);
    for (const id of [...ids].reverse()) expect(cased.case(id)).toEqual(many.cases[id]);
    for (const id of ids) expect(cased.case(id)).toEqual(many.cases[id]);
    // Accepted again meanwhile (a rename over it): its cases are not read from the new file.
    await writeBaseline(dir, { ...many, source_run: 'r2' });
    expect(() => cased.case('case-0')).toThrow(/changed while driftcheck was reading it/);
  });

  it("keeps a large baseline's figures as columns: each case's read back as the file has them", async () => {
    await writeBaseline(dir, baseline());
    const cased = (await SuiteBaseline.read(dir, 'refunds', 0))!;
    const whole = (await readBaseline(dir, 'refunds'))!;
    expect([...cased.figures.ids()]).toEqual(Object.keys(whole.cases));
    expect(Object.keys(whole.cases)).toHaveLength(Object.keys(baseline().cases).length);
    for (const [id, c] of Object.entries(whole.cases)) {
      expect(cased.figures.has(id)).toBe(true);
      expect(cased.figures.get(id)).toEqual({
        status: c.status,
        ...(c.samples ? { samples: c.samples } : {}),
        usage: c.usage,
        ...(c.latency_ms ? { latency_ms: c.latency_ms } : {}),
        error_kind: c.error_kind,
        ...(c.tool_calls ? { tool_calls: c.tool_calls } : {}),
      });
    }
    expect(cased.figures.get('tooled')).toHaveProperty('tool_calls.valid', 2);
    // What the suite-wide rules read, without making the figures: the same from the columns
    // as from the baseline in memory.
    const held = SuiteBaseline.of(whole);
    for (const id of [...Object.keys(whole.cases), 'nope'])
      expect(cased.recorded(id)).toEqual(held.recorded(id));
    expect(cased.recorded('tooled')).toEqual({ tool_calls: whole.cases.tooled!.tool_calls });
    expect(cased.recorded('plain')).toEqual({});
    expect(cased.figures.get('nope')).toBeUndefined();
    expect(cased.figures.has('toString')).toBe(false);
  });

  it('reads a small baseline whole, as readBaseline does', async () => {
    await writeBaseline(dir, baseline());
    expect((await SuiteBaseline.read(dir, 'refunds'))!.toBaseline()).toEqual(
      await readBaseline(dir, 'refunds'),
    );
  });

  it('reads each case as readBaseline does, from the canonical file and from a hand-edited one', async () => {
    await writeBaseline(dir, baseline());
    const canonical = await SuiteBaseline.read(dir, 'refunds', 0);
    const whole = (await readBaseline(dir, 'refunds'))!;
    expect(canonical!.toBaseline()).toEqual(whole);
    expect([...canonical!.figures.ids()]).toEqual(Object.keys(whole.cases));
    expect(canonical!.case('tricky "}{][')).toEqual(whole.cases['tricky "}{][']);
    expect(canonical!.case('__proto__')).toEqual(baseline().cases.__proto__);
    expect(canonical!.case('nope')).toBeNull();
    expect(canonical!.figures.get('repeated')).toEqual({
      status: 'pass',
      samples: { pass: 7, total: 10 },
      usage: whole.cases.repeated!.usage,
      latency_ms: { n: 10, p50: 400, p95: 900, sample: [300, 400, 900] },
      error_kind: null,
    });
    // One line, keys in another order, tabs and CRLF: still walked case by case, same values.
    const b = baseline();
    const edited = `\t{"cases":${JSON.stringify(b.cases)} ,\r\n "schema_version": 1, "suite":"refunds","service":"router","model":"openai/gpt-4o-mini","source_run":"r1"}\r\n`;
    const { whole: w, cased: c } = await both(edited);
    expect((c as SuiteBaseline).toBaseline()).toEqual(w);
    expect((c as SuiteBaseline).head).toEqual({
      schema_version: 1,
      suite: 'refunds',
      service: 'router',
      model: 'openai/gpt-4o-mini',
      source_run: 'r1',
    });
    // Walked, not read whole: its cases are read again from the file (a file replaced since is refused).
    const fresh = (await SuiteBaseline.read(dir, 'refunds', 0))!;
    await writeFile(join(dir, 'refunds.json'), edited.replace('"r1"', '"r2"'));
    expect(() => fresh.case('plain')).toThrow(/changed while driftcheck was reading it/);
  });

  it('refuses what readBaseline refuses, with its words', async () => {
    const good = JSON.stringify(baseline());
    const bad = [
      good.slice(0, -10),
      good.replace('"status":"error"', '"status":17'),
      good.replace('"suite":"refunds"', '"suite":"other"'),
      good.replace('"schema_version":1', '"schema_version":2'),
      `${good} trailing`,
    ];
    for (const text of bad) {
      const { whole, cased } = await both(text);
      expect(whole).toBeInstanceOf(Error);
      expect((cased as Error).message).toBe((whole as Error).message);
    }
    await rm(join(dir, 'refunds.json'));
    expect(await SuiteBaseline.read(dir, 'refunds', 0)).toBeNull();
  });

  it("checks a baseline at a run's pre-flight with a whole read's words, a large one (walked) too", async () => {
    const large: Baseline = { ...baseline(), cases: {} };
    // Past the size from which baselines are walked (4 MiB).
    for (let i = 0; i < 6_000; i++) large.cases[`case-${i}`] = baselineCase({ content: 'x'.repeat(700) });
    await writeBaseline(dir, large);
    // It gives the head it checked, and keeps nothing of the cases.
    const { cases: _cases, ...head } = large;
    await expect(SuiteBaseline.check(dir, 'refunds')).resolves.toEqual(head);
    const file = join(dir, 'refunds.json');
    const text = await readFile(file, 'utf8');
    expect(text.length).toBeGreaterThan(4 * 2 ** 20);
    // Read the way check reads it, it is walked: its figures are columns, not a parsed object's.
    expect((await SuiteBaseline.read(dir, 'refunds'))!.figures).toBeInstanceOf(FigureColumns);
    // A bad case deep in the file: the same words as a whole read.
    const at = text.indexOf('"status": "pass"', text.indexOf('"case-5000"'));
    expect(at).toBeGreaterThan(0);
    await writeFile(file, `${text.slice(0, at)}"status": 17${text.slice(at + '"status": "pass"'.length)}`);
    const whole = await readBaseline(dir, 'refunds').catch((e: Error) => e);
    expect(whole).toBeInstanceOf(Error);
    await expect(SuiteBaseline.check(dir, 'refunds')).rejects.toThrow((whole as Error).message);
    await rm(file);
    await expect(SuiteBaseline.check(dir, 'refunds')).resolves.toBeNull();
  });

  it('reads a baseline that is a FIFO, as readBaseline does (a pipe is read on, never at a position)', async () => {
    await writeBaseline(dir, baseline());
    const text = await readFile(join(dir, 'refunds.json'), 'utf8');
    const expected = await readBaseline(dir, 'refunds');
    await rm(join(dir, 'refunds.json'));
    execFileSync('mkfifo', [join(dir, 'refunds.json')]);
    // Each reading opens the FIFO once: a writer for each (opening for writing waits for the reader).
    const fed = <T>(read: () => Promise<T>): Promise<T> => {
      const writer = createWriteStream(join(dir, 'refunds.json'));
      writer.end(text);
      return read();
    };
    expect((await fed(() => SuiteBaseline.read(dir, 'refunds')))!.toBaseline()).toEqual(expected);
    const { cases: _cases, ...head } = expected!;
    await expect(fed(() => SuiteBaseline.check(dir, 'refunds'))).resolves.toEqual(head);
  });

  it('says it cannot read a baseline the file system will not give, and lets any other error through as it is', async () => {
    // A folder where the file should be: opened, but not read.
    await mkdir(join(dir, 'refunds.json'));
    const expected = `${join(dir, 'refunds.json')}: cannot read the baseline: EISDIR: illegal operation on a directory, read`;
    for (const read of [
      () => readBaseline(dir, 'refunds'),
      () => SuiteBaseline.read(dir, 'refunds'),
      () => SuiteBaseline.check(dir, 'refunds'),
    ]) {
      const error = await read().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FileError);
      expect((error as Error).message).toBe(expected);
    }
    const file = join(dir, 'refunds.json');
    expect(
      noBaselineOr(file, Object.assign(new Error('no'), { code: 'ENOENT', syscall: 'open' })),
    ).toBeNull();
    // A bug is not worded as a file that cannot be read (it would exit as bad input, not as a bug).
    const bug = new TypeError('columns.add is not a function');
    expect(() => noBaselineOr(file, bug)).toThrow(bug);
    const worded = new FileError(file, 'the baseline changed while driftcheck was reading it');
    expect(() => noBaselineOr(file, worded)).toThrow(worded);
  });
});
