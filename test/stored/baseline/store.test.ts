import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { baselinePath, readBaseline, writeBaseline } from '../../../src/stored/baseline/store.js';
import { FileError } from '../../../src/util/errors.js';
import type { Baseline } from '../../../src/stored/baseline/types.js';
import { baselineCase } from '../../baseline/fixtures.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'driftcheck-baseline-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function sample(): Baseline {
  return {
    schema_version: 1,
    suite: 'refunds',
    service: 'router',
    model: 'openai/gpt-4o-mini',
    source_run: 'run-1',
    cases: {
      'refund-window': baselineCase(),
      'order-json': baselineCase({
        status: 'fail',
        usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3, cost: 0.0001 },
        samples: { pass: 1, total: 3 },
      }),
      alpha: baselineCase({ status: 'error', error_kind: 'timeout', content: null, usage: null }),
    },
  };
}

/** A baseline case's fields in the order its file lists them (for the fixture's fields). */
const CASE_KEYS = [
  'status',
  'requested_model',
  'model',
  'finish_reason',
  'error_kind',
  'usage',
  'checks',
  'content',
];

/** The same baseline with every object's keys inserted in reverse order. */
function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([k, v]) => [k, reversed(v)]),
    );
  }
  return value;
}

describe('baseline store', () => {
  it('round-trips what it writes', async () => {
    const file = await writeBaseline(dir, sample());
    expect(file).toBe(join(dir, 'refunds.json'));
    expect(await readBaseline(dir, 'refunds')).toEqual(sample());
  });

  it('shares repeated check lists between entries, unchanged in value and frozen', async () => {
    const many = sample();
    for (const id of ['b', 'c'])
      many.cases[id] = baselineCase({ checks: [{ type: 'contains', pass: true }] });
    many.cases.d = baselineCase({ checks: [{ type: 'contains', pass: false }] });
    await writeBaseline(dir, many);
    const read = (await readBaseline(dir, 'refunds'))!;
    expect(read).toEqual(many);
    const [b, c, d] = [read.cases.b!, read.cases.c!, read.cases.d!];
    expect(b.checks).toBe(c.checks);
    expect(d.checks).not.toBe(b.checks);
    expect(Object.isFrozen(b.checks)).toBe(true);
  });

  it('returns null when the suite has no baseline yet', async () => {
    expect(await readBaseline(dir, 'refunds')).toBeNull();
    expect(await readBaseline(join(dir, 'no-such-dir'), 'refunds')).toBeNull();
  });

  it('writes identical bytes whatever the input key order, sorted and pretty with a trailing newline', async () => {
    const file = await writeBaseline(dir, sample());
    const first = await readFile(file, 'utf8');
    await writeBaseline(dir, reversed(sample()) as Baseline);
    const second = await readFile(file, 'utf8');
    expect(second).toBe(first);
    expect(first.endsWith('}\n')).toBe(true);
    expect(first).toMatch(/^{\n {2}"schema_version": 1,\n {2}"suite": "refunds",/);
    const json = JSON.parse(first) as Baseline;
    expect(Object.keys(json.cases)).toEqual(['alpha', 'order-json', 'refund-window']);
    expect(Object.keys(json.cases.alpha!)).toEqual(CASE_KEYS);
    expect(Object.keys(json.cases['order-json']!.usage!)).toEqual([
      'prompt_tokens',
      'completion_tokens',
      'total_tokens',
      'cost',
    ]);
    expect(Object.keys(json.cases['order-json']!)[1]).toBe('samples');
  });

  it('puts fields no order lists after the listed ones, sorted, at every depth ("__proto__" a field)', async () => {
    const b = sample();
    const extra = JSON.parse(
      '{"zeta": {"y": 1, "__proto__": {"b": 2, "a": 1}, "B": [{"k": 1, "c": 0}]}, "alpha_field": 3, "10": "x", "2": "y"}',
    ) as Record<string, unknown>;
    b.cases['refund-window'] = { ...extra, ...baselineCase() } as Baseline['cases'][string];
    const file = await writeBaseline(dir, b);
    const first = await readFile(file, 'utf8');
    await writeBaseline(dir, reversed(b) as Baseline);
    expect(await readFile(file, 'utf8')).toBe(first);
    const written = (JSON.parse(first) as Baseline).cases['refund-window'] as unknown as Record<
      string,
      Record<string, unknown>
    >;
    // Integer-like keys lead whatever the order (a rule of JS objects); then the listed
    // fields in their order; then the rest, sorted as text.
    expect(Object.keys(written)).toEqual(['2', '10', ...CASE_KEYS, 'alpha_field', 'zeta']);
    expect(Object.keys(written.zeta!)).toEqual(['B', '__proto__', 'y']);
    expect(Object.getOwnPropertyNames(written.zeta!.__proto__)).toEqual(['a', 'b']);
    expect(Object.keys((written.zeta!.B as Record<string, unknown>[])[0]!)).toEqual(['c', 'k']);
  });

  it('writes a latency sketch in fixed order with its sample on one line, and reads it back', async () => {
    const b = sample();
    b.cases['refund-window'] = baselineCase({
      latency_ms: { sample: [410, 432, 455, 1210], p95: 1210, n: 4, p50: 432 },
      content: 'see "sample": [\n1\n]',
    });
    const file = await writeBaseline(dir, b);
    const text = await readFile(file, 'utf8');
    expect(text).toContain(
      '"latency_ms": {\n        "n": 4,\n        "p50": 432,\n        "p95": 1210,\n        "sample": [410, 432, 455, 1210]\n      },\n      "content": "see \\"sample\\": [\\n1\\n]"',
    );
    expect(await readBaseline(dir, 'refunds')).toEqual(b);
  });

  it('writes case by case the one canonical JSON text: integer-like ids first, "__proto__" kept, any number of cases', async () => {
    const ids = [
      'b',
      '10',
      '2',
      'a',
      '__proto__',
      'Z',
      'é',
      '007',
      '1e3',
      ...Array.from({ length: 3000 }, (_, i) => `row-${i}`),
    ];
    const b: Baseline = {
      ...sample(),
      cases: Object.fromEntries(
        ids.map((id, i) => [
          id,
          baselineCase({
            content: `answer ${i}\nwith "quotes" and ünïcode`,
            latency_ms: { n: 3, p50: 2.5, p95: 3, sample: [1, 2.5, 3] },
          }),
        ]),
      ),
    };
    const file = await writeBaseline(dir, b);
    const text = await readFile(file, 'utf8');
    const parsed = JSON.parse(text) as Baseline;
    expect(parsed).toEqual(b);
    // The text is exactly the parsed value printed whole (latency samples on one line).
    const whole = JSON.stringify(parsed, null, 2).replace(
      /"sample": \[\n([\d\s.,]*?)\n\s*\]/g,
      (_m, body: string) =>
        `"sample": [${body
          .split(',')
          .map((n) => n.trim())
          .join(', ')}]`,
    );
    expect(text).toBe(`${whole}\n`);
    expect(Object.keys(parsed.cases).slice(0, 2)).toEqual(['2', '10']);
    const empty = await readFile(await writeBaseline(dir, { ...b, cases: {} }), 'utf8');
    expect(empty).toContain('\n  "cases": {}\n}\n');
    expect(JSON.parse(empty)).toEqual({ ...b, cases: {} });
  });

  it('leaves no temp file behind, and creates the folder', async () => {
    const nested = join(dir, 'baselines');
    await writeBaseline(nested, sample());
    await writeBaseline(nested, { ...sample(), source_run: 'run-2' });
    expect(await readdir(nested)).toEqual(['refunds.json']);
  });

  it.each(['', '.', '..', '../escape', 'a/b', 'a\\b', 'nul\0byte', '/etc/passwd', 'C:evil'])(
    'rejects the unsafe suite id %j',
    async (suite) => {
      expect(() => baselinePath(dir, suite)).toThrow(FileError);
      await expect(readBaseline(dir, suite)).rejects.toThrow(FileError);
      await expect(writeBaseline(dir, { ...sample(), suite })).rejects.toThrow(
        /cannot be used as a baseline file name/,
      );
    },
  );

  it.each(['refunds', 'a..b', 'Ünïcode-suite', '.hidden'])('accepts the safe suite id %j', (suite) => {
    expect(baselinePath(dir, suite)).toBe(join(dir, `${suite}.json`));
  });

  it.each([
    ['invalid JSON', '{"schema_version": 1,', /is not valid JSON/],
    [
      'a newer schema_version',
      JSON.stringify({ ...sample(), schema_version: 2 }),
      /schema_version 2; this driftcheck reads version 1/,
    ],
    ['a non-object', '[]', /must be a mapping, got a list/],
    [
      'a case without status',
      JSON.stringify({ ...sample(), cases: { x: { requested_model: 'm' } } }),
      /missing required key 'status' in cases\.x/,
    ],
    [
      'a recorded field of the wrong type',
      JSON.stringify({
        ...sample(),
        cases: { x: { ...Object.values(sample().cases)[0], provider: 5 } },
      }),
      /'cases.x.provider' must be text or empty, got an integer/,
    ],
    [
      'another suite',
      JSON.stringify({ ...sample(), suite: 'other' }),
      /belongs to suite "other", not "refunds"/,
    ],
  ])('rejects a file with %s, naming the file and what to do', async (_name, text, message) => {
    const file = join(dir, 'refunds.json');
    await writeFile(file, text);
    const error = await readBaseline(dir, 'refunds').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FileError);
    expect((error as FileError).file).toBe(file);
    expect((error as FileError).message).toContain(file);
    expect((error as FileError).message).toMatch(message);
    expect((error as FileError).message).toMatch(/driftcheck baseline accept/);
    expect((error as FileError).exitCode).toBe(2);
  });
});
