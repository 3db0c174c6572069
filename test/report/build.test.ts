import { describe, expect, it } from 'vitest';
import { baselineFromResults } from '../../src/baseline/build.js';
import { buildReport } from '../../src/report/build.js';
import { NONE } from '../../src/run/result.js';
import type { Baseline, CaseResult } from '../../src/types.js';
import { makeCase } from './fixture.js';

const run = {
  id: '20261122T050000000Z-abcd',
  started_at: '2026-11-22T05:00:00.000Z',
  finished_at: '2026-11-22T05:00:09.000Z',
  command: ['driftcheck', 'run'],
  driftcheck_version: '0.0.0',
  sim: true,
  candidate_model: null,
  shard: null,
};
const suite = {
  suite: 'support',
  file: 'suites/support.yaml',
  service: 'router',
  model: 'openai/gpt-4o-mini',
};

/** The baseline these (passing) cases would give when accepted: no drift against it. */
function baselineWith(caseIds: string[]): Baseline {
  return baselineFromResults({
    suite: 'support',
    service: 'router',
    model: 'openai/gpt-4o-mini',
    run_id: 'earlier',
    results: caseIds.map((id) => makeCase({ case: id })),
    previous: null,
  });
}

/** A report of `results` against a baseline holding (passing) `baselineCases`. */
function reportOf(results: CaseResult[], baselineCases: string[]) {
  return buildReport({
    run,
    stop: null,
    suites: [suite],
    results,
    baselines: new Map([['support', { baseline: baselineWith(baselineCases), path: 'b.json' }]]),
    complete: true,
  });
}

describe('buildReport', () => {
  it('takes the results over instead of copying them: one object per sample while the reports are written', () => {
    const results = [
      makeCase({ case: 'same' }),
      makeCase({
        case: 'gone-bad',
        status: 'fail',
        checks: [{ type: 'contains', pass: false, message: 'x' }],
      }),
    ];
    const report = reportOf(results, ['same', 'gone-bad']);
    expect(report.cases).toHaveLength(2);
    expect(report.cases[0]).toBe(results[0]);
    expect(report.cases[1]).toBe(results[1]);
    expect(results[1]!.drift.map((d) => d.kind)).toEqual(['regressed']);
    expect(report.run.exit_code).toBe(1);
  });

  it('gives every sample without drift the one shared, frozen empty list', () => {
    const results = [makeCase({ case: 'a' }), makeCase({ case: 'b' })];
    const report = reportOf(results, ['a', 'b']);
    expect(report.cases.map((c) => c.drift)).toEqual([[], []]);
    expect(report.cases[0]!.drift).toBe(NONE);
    expect(report.cases[1]!.drift).toBe(NONE);
    // A stray push would add to every result at once; frozen, it throws instead.
    expect(() => (report.cases[0]!.drift as unknown[]).push('x')).toThrow(TypeError);
    expect(JSON.stringify(report.cases[0]!.drift)).toBe('[]');
  });
});
