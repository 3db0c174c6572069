import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createReporters } from '../../src/report/outputs.js';
import { loadReport } from '../../src/stored/report/read.js';
import type { Baseline } from '../../src/stored/baseline/types.js';
import { baselineCase, caseError } from '../baseline/fixtures.js';
import { foldSamples } from '../helpers/fold.js';
import { sampleResult } from '../helpers/results.js';
import { embedded } from './fixture.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'driftcheck-outputs-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const usage = { prompt_tokens: 12, completion_tokens: 8, total_tokens: 20, cost: 0.0001 };
const baseline: Baseline = {
  schema_version: 1,
  suite: 'support',
  service: 'router',
  model: 'openai/gpt-4o-mini',
  source_run: 'run-0',
  cases: { a: baselineCase({ content: 'the old answer', usage }), b: baselineCase({ usage }) },
};
const samples = [
  sampleResult({
    suite: 'support',
    case: 'a',
    status: 'error',
    content: null,
    usage: null,
    error: caseError('timeout', 'no complete answer within 60 s'),
  }),
  sampleResult({
    suite: 'support',
    case: 'b',
    usage: { prompt_tokens: 20, completion_tokens: 24, total_tokens: 44, cost: 0.0002 },
  }),
];

describe('the file reporters, fed by the fold', () => {
  it('write report.json, report.html, junit.xml and summary.md from the folded suites, and leave no spool behind', async () => {
    const reporters = await createReporters(new Set(['json', 'html', 'junit', 'markdown']), {
      dir,
      write: () => {},
      color: false,
    });
    const folded = await foldSamples(samples, { baselines: { support: baseline }, reporters });
    expect((await readdir(dir)).sort()).toEqual(['junit.xml', 'report.html', 'report.json', 'summary.md']);

    const stored = await loadReport(dir);
    // What was written is what was folded.
    expect(stored).toEqual(JSON.parse(JSON.stringify(folded)));

    const html = await readFile(join(dir, 'report.html'), 'utf8');
    expect(embedded(html).cases.find((c) => c.case === 'a')).toMatchObject({
      baseline: 'text',
      baseline_content: 'the old answer',
    });
    // b answered on both sides: 20 → 44 tokens.
    expect(html).toContain('<dt>vs baseline</dt><dd>20 → 44 tokens (+120.0%) over the 1 cases both answered');
    expect(await readFile(join(dir, 'summary.md'), 'utf8')).toMatch(
      /\| 2 \| 1 \| 0 \| 1 \| 0 \| 1 \| 2 \| 2 \|/,
    );
  });

  it('read back the same when report.json was re-indented by a tool (jq ., JSON.stringify(…, 2))', async () => {
    const reporters = await createReporters(new Set(['json']), {
      dir,
      write: () => {},
      color: false,
    });
    await foldSamples(samples, { baselines: { support: baseline }, reporters });
    const written = await loadReport(dir);
    await writeFile(join(dir, 'report.json'), JSON.stringify(written, null, 2));
    expect(await loadReport(dir)).toEqual(written);
  });
});
