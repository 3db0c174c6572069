import { describe, expect, it } from 'vitest';
import { caseLine, entryFromLine, REPORT_SCHEMA_VERSION } from '../../../src/stored/report/case-line.js';
import type { CaseEntry, Report } from '../../../src/stored/report/types.js';
import type { SampleResult } from '../../../src/stored/journal/records.js';
import { foldSamples } from '../../helpers/fold.js';
import { sampleResult } from '../../helpers/results.js';
import { repeatedReport, sampleCases } from '../../report/fixture.js';
import { RECORDED } from '../../../src/record/registry.js';

/** Every case of a report written as report.json writes it and read back as every reader reads it. */
function roundTrip(report: Pick<Report, 'suites' | 'cases'>): { lines: string[]; back: CaseEntry[] } {
  const suites = new Map(report.suites.map((s) => [s.suite, s]));
  const lines = report.cases.map((c) => JSON.stringify(caseLine(c, suites.get(c.suite))));
  const back = lines.map((line) => {
    const parsed = JSON.parse(line) as Record<string, unknown>;
    return entryFromLine(parsed, suites.get(parsed.suite as string), REPORT_SCHEMA_VERSION);
  });
  return { lines, back };
}

const judged = (over: Partial<SampleResult> & { case: string }) =>
  sampleResult({
    checks: [
      {
        type: 'judge',
        pass: over.status !== 'fail',
        message: 'judged',
        judge: {
          model: 'openai/gpt-4o',
          usage: { prompt_tokens: 50, completion_tokens: 3, total_tokens: 53, cost: 0.001 },
          verdict: 'pass',
          reason: 'same',
        },
      },
    ],
    ...over,
  });

/** Samples that make every kind of entry the fold writes: repeated, noisy, erroring, judged, redacted, not run, served by several. */
function variedSamples(): SampleResult[] {
  const out: SampleResult[] = [];
  out.push(sampleResult({ case: 'plain' }));
  out.push(sampleResult({ case: 'no-usage', usage: null, latency_ms: null, finish_reason: null }));
  out.push(
    sampleResult({
      case: 'direct',
      service: 'direct',
      requested_model: 'gpt-4o-mini',
      native_finish_reason: null,
    }),
  );
  for (let r = 0; r < 5; r++)
    out.push(
      sampleResult({
        case: 'noisy',
        repeat: r,
        status: r === 3 ? 'fail' : 'pass',
        content: r === 3 ? 'other' : 'same',
        latency_ms: 100 + r * 10,
        provider: r % 2 ? 'Azure' : 'OpenAI',
        attempts: r === 2 ? 3 : 1,
        wait_ms: r === 2 ? 1500 : 0,
      }),
    );
  out.push(
    sampleResult({
      case: 'errored',
      status: 'error',
      content: null,
      error: {
        kind: 'server_error',
        http_status: 502,
        type: null,
        code: null,
        message: 'bad gateway',
        model: null,
      },
    }),
  );
  out.push(judged({ case: 'judged' }));
  out.push(sampleResult({ case: 'redacted', redacted: true, reasoning_tokens: 12, cache_status: 'MISS' }));
  out.push(sampleResult({ case: 'refused', status: 'fail', refusal: 'I cannot help with that.' }));
  return out;
}

describe('report.json case lines (schema 3)', () => {
  it('every entry the fold makes reads back exactly as it was', async () => {
    const report = await foldSamples(variedSamples(), { unsent: { refunds: ['never-sent'] } });
    expect(report.cases.map((c) => c.case)).toContain('never-sent');
    const { back } = roundTrip(report);
    expect(back).toEqual(report.cases);
  });

  it('puts a recorded field back where the fold writes it, once the fields it reads are back', async () => {
    const report = await foldSamples(variedSamples());
    const between = (o: object, from: string, to: string) => {
      const keys = Object.keys(o);
      return keys.slice(keys.indexOf(from) + 1, keys.indexOf(to));
    };
    const { back } = roundTrip(report);
    for (const [i, c] of back.entries()) {
      const folded = report.cases[i]!;
      expect(between(c, 'models', 'finish_reason')).toEqual(between(folded, 'models', 'finish_reason'));
      expect(between(c.stats, 'total_tokens', 'cost')).toEqual(between(folded.stats, 'total_tokens', 'cost'));
    }
    expect(between(back[0]!, 'models', 'finish_reason')).toEqual(
      Object.values(RECORDED).flatMap((f) => Object.keys('case' in f ? f.case : {})),
    );
    // native_finish_reason is left out where it is the finish_reason that follows it.
    const native = await foldSamples([sampleResult({ case: 'n', native_finish_reason: 'stop' })]);
    const once = roundTrip(native);
    expect(JSON.parse(once.lines[0]!)).not.toHaveProperty('native_finish_reason');
    expect(once.back[0]!.native_finish_reason).toBe('stop');
    expect(once.back).toEqual(native.cases);
  });

  it.each([
    ['the reporter fixtures', { suites: [], cases: sampleCases() }],
    ['repeated cases', repeatedReport()],
  ])('%s read back exactly as they were', (_name, report) => {
    expect(roundTrip(report).back).toEqual(report.cases);
  });

  it('a case sampled once leaves out what its status and usage say (never what DESIGN.md promises every case records), and is about half its full size', async () => {
    const report = await foldSamples([sampleResult({ case: 'plain', latency_ms: 120 })]);
    const [line] = roundTrip(report).lines;
    const written = JSON.parse(line!) as Record<string, unknown>;
    for (const key of ['suite', 'case', 'id', 'service', 'requested_model', 'status'])
      expect(written).toHaveProperty(key);
    for (const key of ['samples', 'models', 'error_kinds', 'check_passes', 'detail'])
      expect(written).not.toHaveProperty(key);
    expect(written.stats).toEqual({ latency_ms: { p50: 120 } });
    expect(line!.length).toBeLessThanOrEqual(0.55 * JSON.stringify(report.cases[0]).length);
  });

  it("leaves the suite's system prompt out of each case and puts it back in front", async () => {
    const report = await foldSamples([sampleResult({ case: 'a' }), sampleResult({ case: 'b' })]);
    const system = 'You answer for ACME support. '.repeat(100);
    const withSystem = {
      suites: report.suites.map((s) => ({ ...s, system })),
      cases: report.cases.map((c) => ({
        ...c,
        messages: [{ role: 'system' as const, content: system }, ...c.messages],
      })),
    };
    const { lines, back } = roundTrip(withSystem);
    for (const line of lines) expect(line).not.toContain('ACME');
    expect(back).toEqual(withSystem.cases);
  });

  it('writes a field whenever its rule would not give it back (a case of another service than its suite)', async () => {
    const report = await foldSamples([sampleResult({ case: 'a' })]);
    const moved = { ...report.cases[0]!, service: 'direct', id: 'elsewhere/a' };
    const { lines, back } = roundTrip({ suites: report.suites, cases: [moved] });
    expect(JSON.parse(lines[0]!)).toMatchObject({ service: 'direct', id: 'elsewhere/a' });
    expect(back).toEqual([moved]);
  });

  it('writes a list or an object its rule derives in another key order, length or value, and reads it back exactly', async () => {
    const report = await foldSamples([sampleResult({ case: 'a' })]);
    const entry = report.cases[0]!;
    const { not_run, ...rest } = entry.samples;
    const shuffled = {
      ...entry,
      // The counts a case sampled once derives, with their keys in another order.
      samples: { not_run, ...rest },
      // One more pass than the single sample it derives.
      check_passes: [...entry.check_passes, 1],
      // As long as the one model it derives, but another.
      models: ['another/model'],
    };
    const { lines, back } = roundTrip({ suites: report.suites, cases: [shuffled] });
    const written = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(written).toHaveProperty('samples');
    expect(written).toHaveProperty('check_passes');
    expect(written.models).toEqual(['another/model']);
    expect(back).toEqual([shuffled]);
  });

  it('compares an object with its derived one as JSON does: a field JSON skips is no difference, one nested deeper that differs is', async () => {
    const report = await foldSamples([sampleResult({ case: 'a', latency_ms: 40 })]);
    const entry = report.cases[0]!;
    // The counts it derives, and a field JSON.stringify does not write: the same text.
    const skipped = { ...entry, samples: { ...entry.samples, later: undefined } };
    // Its answered usage as derived but for the latency sample, two levels further in.
    const answered = entry.stats.answered;
    const deeper = {
      ...entry,
      stats: {
        ...entry.stats,
        answered: { ...answered, latency_ms: { ...answered.latency_ms!, sample: [41] } },
      },
    };
    const { lines, back } = roundTrip({ suites: report.suites, cases: [skipped, deeper] });
    const [first, second] = lines.map(
      (l) => JSON.parse(l) as { samples?: unknown; stats?: { answered?: unknown } },
    );
    expect(first).not.toHaveProperty('samples');
    expect(first!.stats ?? {}).not.toHaveProperty('answered');
    expect(second!.stats?.answered).toEqual(deeper.stats.answered);
    expect(back).toEqual([entry, deeper]);
  });

  it('a field no rule knows passes through as a plain field, `__proto__` included', async () => {
    const report = await foldSamples([sampleResult({ case: 'a' })]);
    const line = JSON.parse(
      JSON.stringify(caseLine(report.cases[0]!, report.suites[0])).replace(
        /^\{/,
        '{"__proto__":{"polluted":true},"later_field":1,',
      ),
    ) as Record<string, unknown>;
    const back = entryFromLine(line, report.suites[0], REPORT_SCHEMA_VERSION) as unknown as Record<
      string,
      unknown
    >;
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(Object.hasOwn(back, '__proto__')).toBe(true);
    expect(back.later_field).toBe(1);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a schema-2 entry is read as written, gaining only the detail it did not record', async () => {
    const report = await foldSamples([
      sampleResult({ case: 'a' }),
      sampleResult({ case: 'b', status: 'fail' }),
    ]);
    const v2 = report.cases.map(({ detail: _detail, ...rest }) => rest);
    const back = v2.map((c) =>
      entryFromLine(structuredClone(c) as Record<string, unknown>, report.suites[0], 2),
    );
    expect(back).toEqual(report.cases);
    expect(back.map((c) => c.detail)).toEqual(['brief', 'full']);
  });
});
