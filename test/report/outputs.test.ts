import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeReportFiles } from '../../src/report/outputs.js';
import type { Baseline } from '../../src/types.js';
import { baselineCase } from '../baseline/fixtures.js';
import { embedded, makeCase, makeReport, regressedDrift } from './fixture.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'driftcheck-outputs-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('writeReportFiles', () => {
  it("gives the HTML report the run's baselines: old answers and the usage comparison", async () => {
    const usage = { prompt_tokens: 12, completion_tokens: 8, total_tokens: 20, cost: 0.0001 };
    const baseline: Baseline = {
      schema_version: 1,
      suite: 'support',
      service: 'router',
      model: 'openai/gpt-4o-mini',
      source_run: 'run-0',
      cases: { a: baselineCase({ content: 'the old answer', usage }), b: baselineCase({ usage }) },
    };
    const report = makeReport([
      makeCase({ case: 'a', status: 'error', content: null, drift: [regressedDrift('errors')] }),
      makeCase({ case: 'b' }),
    ]);
    const files = await writeReportFiles(dir, report, new Set(['html']), (t) => t, {
      baselines: new Map([['support', { baseline }]]),
    });
    expect(files).toEqual([join(dir, 'report.json'), join(dir, 'report.html')]);
    const html = await readFile(join(dir, 'report.html'), 'utf8');
    expect(embedded(html).cases.find((c) => c.case === 'a')).toMatchObject({
      baseline: 'text',
      baseline_content: 'the old answer',
    });
    expect(html).toContain('<dt>vs baseline</dt><dd>40 → 64 tokens');
  });
});
