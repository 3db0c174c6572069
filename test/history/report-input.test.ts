import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRunForHistory } from '../../src/history/report-input.js';

const V2 = fileURLToPath(new URL('../fixtures/history/report-v2.json', import.meta.url));

describe('readRunForHistory', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'driftcheck-history-input-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('maps a schema-2 report (one entry per case) onto the history', async () => {
    const read = await readRunForHistory(V2);
    const { run, baselines } = read;
    const cases = [];
    for await (const c of read.cases()) cases.push(c);
    expect(run).toEqual({
      run_id: '20261123T031700000Z-ab12',
      started_at: '2026-11-23T03:17:00.000Z',
      finished_at: '2026-11-23T03:19:10.000Z',
      exit_code: 1,
      status: 'completed',
      suites: [
        {
          suite: 'support',
          models: ['openai/gpt-4o-mini-2024-07-18'],
          providers: ['OpenAI', 'Azure'],
          baseline_source_run: null,
        },
      ],
    });
    expect(baselines).toEqual(new Map([['support', 'baselines/support.json']]));
    expect(cases).toEqual([
      {
        suite: 'support',
        case: 'refund-window',
        status: 'fail',
        samples: 10,
        passes: 6,
        error_kinds: ['timeout'],
        drift_kinds: ['pass_rate_dropped', 'provider_changed'],
        model: 'openai/gpt-4o-mini-2024-07-18',
        provider: 'OpenAI',
        tokens: { prompt: 1200, completion: 300, total: 1530 },
        cost: 0.0021,
        latency_p50_ms: 800,
        latency_p95_ms: 1900,
        // A schema-2 report predates recorded tool calls: no counts.
        tools: null,
      },
      expect.objectContaining({ case: 'greeting', status: 'pass', passes: 10, provider: null, tokens: null }),
    ]);
  });

  it.each([
    ['future.json', '{"schema_version":4,"run":{"id":"x"},"cases":[],"suites":[]}', /schema 4 is newer/],
    ['foreign.json', '{"hello":1}', /not a driftcheck report/],
    ['broken.json', '{"schema_version":', /not JSON/],
  ])('refuses %s with a message naming the file', async (name, text, message) => {
    await writeFile(join(dir, name), text);
    await expect(readRunForHistory(join(dir, name))).rejects.toThrow(message);
    await expect(readRunForHistory(join(dir, name))).rejects.toThrow(name);
  });

  it('says what to do when the folder has no report (the message every report reader gives)', async () => {
    const folder = join(dir, 'killed');
    await mkdir(folder);
    await expect(readRunForHistory(folder)).rejects.toThrow(
      'not a run folder: it has no report.json and no journal (results.jsonl)',
    );
    await writeFile(join(folder, 'results.jsonl'), '');
    await expect(readRunForHistory(folder)).rejects.toThrow(
      `no report.json in this run folder\n  → render it from its journal with \`driftcheck report ${folder}\``,
    );
    await expect(readRunForHistory(join(dir, 'nonexistent'))).rejects.toThrow('no such folder or file');
  });
});
