import { readdirSync, readlinkSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulateServices } from '../../src/cli/sim-setup.js';
import { defaultConfig } from '../../src/config/defaults.js';
import type { PlanRecord } from '../../src/stored/journal/records.js';
import { loadReport } from '../../src/stored/report/read.js';
import { planLinePart } from '../../src/run/plan-records.js';
import { runSuites } from '../../src/cli/run-suites.js';
import { simRequestHeaders } from '../../src/sim/protocol.js';
import { loadSuites, readSuiteCases } from '../../src/suite/load.js';
import type { Suite } from '../../src/suite/types.js';

/** Whether this process holds the table open (Linux: its descriptors in /proc). */
const tableOpen = () =>
  readdirSync('/proc/self/fd').some((fd) => {
    try {
      return readlinkSync(join('/proc/self/fd', fd)).endsWith('rows.jsonl');
    } catch {
      return false;
    }
  });

// A suite too large to hold while it runs (more than 5,000 cases): its table is read again
// as the run reaches it, and its plan record is made, journaled and folded a part at a time.
const ROWS = 5_500;

describe('a suite larger than a run holds', () => {
  let dir: string;
  let sim: Awaited<ReturnType<typeof simulateServices>>;
  let suites: Suite[];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'driftcheck-large-'));
    await mkdir(join(dir, 'suites'));
    const rows = Array.from({ length: ROWS }, (_, i) => JSON.stringify({ n: i, text: `row ${i}` }));
    await writeFile(join(dir, 'suites/rows.jsonl'), `${rows.join('\n')}\n`);
    await writeFile(
      join(dir, 'suites/big.yaml'),
      [
        'suite: big',
        'service: router',
        'model: openai/gpt-4o-mini',
        'system: Be brief.',
        'tables:',
        '  - path: rows.jsonl',
        '    case:',
        '      id: "r-{{n}}"',
        '      prompt: "Say exactly: {{text}}"',
        '      expect: [{ contains: "{{text}}" }]',
        '',
      ].join('\n'),
    );
    sim = await simulateServices(defaultConfig({}), {});
    suites = await loadSuites([join(dir, 'suites')], { cwd: dir, cases: 'none' });
  });
  afterAll(async () => {
    await sim.simulator.close();
    await rm(dir, { recursive: true, force: true });
  });

  const run = async (
    to: string,
    more: Pick<Parameters<typeof runSuites>[0], 'interrupt' | 'onResult'> = {},
  ) =>
    runSuites({
      ...more,
      config: sim.config,
      suites,
      casesOf: (suite: Suite) => readSuiteCases(suite, { cwd: dir }),
      cwd: dir,
      env: sim.env,
      reportDir: join(dir, to),
      baselineDir: join(dir, 'baselines'),
      version: 'test',
      reporters: new Set(['json']),
      requestHeaders: simRequestHeaders,
      meta: {
        command: ['driftcheck', 'run', '--sim'],
        paths: ['suites'],
        config_file: null,
        allow_alias: false,
        sim: true,
        plan: {},
        concurrency: 16,
        update_baselines: false,
      },
    });
  it('journals its plan as one record of every case, in order, and reports every case', async () => {
    const { runDir } = await run('reports');
    const lines = (await readFile(join(runDir, 'results.jsonl'), 'utf8')).split('\n').filter(Boolean);
    const plans = lines.map((l) => JSON.parse(l) as { type: string }).filter((r) => r.type === 'plan');
    expect(plans).toHaveLength(1);
    const plan = plans[0] as PlanRecord;
    expect(plan).toMatchObject({ suite: 'big', system: 'Be brief.', tables: [{ rows: ROWS }] });
    expect(plan.cases.map((c) => c.id)).toEqual(Array.from({ length: ROWS }, (_, i) => `r-${i}`));
    expect(plan.cases[7]).toEqual({
      id: 'r-7',
      ordinal: 7,
      repeat: 1,
      row: [0, 8],
      // What the row sent, by which a recheck matches its answers (journal 6).
      sent: expect.stringMatching(/^[\w-]{12}$/),
    });
    // Before any of its samples.
    expect(lines.findIndex((l) => l.includes('"type":"plan"'))).toBeLessThan(
      lines.findIndex((l) => l.includes('"suite":"big"') && !l.includes('"type":"plan"')),
    );
    // The table, read again for the report's prompts as the suite was folded, is closed.
    if (process.platform === 'linux') expect(tableOpen()).toBe(false);
    const report = await loadReport(runDir);
    expect(report.cases).toHaveLength(ROWS);
    expect(report.cases.filter((c) => c.status === 'pass')).toHaveLength(ROWS);
    expect(report.cases[ROWS - 1]!.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: `Say exactly: row ${ROWS - 1}` },
    ]);
  });

  it.skipIf(process.platform !== 'linux')(
    'a run stopped half-way, interrupted or failed, closes the table it was reading',
    async () => {
      const stop = new AbortController();
      let results = 0;
      const { runDir } = await run('stopped', {
        interrupt: stop.signal,
        onResult: () => {
          if (++results === 200) stop.abort(new Error('SIGINT'));
        },
      });
      expect((await loadReport(runDir)).cases.some((c) => c.status === 'not_run')).toBe(true);
      expect(tableOpen()).toBe(false);
      // A caller's callback that throws ends the run with its error, the table read half-way.
      results = 0;
      const failure = new Error('the caller failed');
      await expect(
        run('failed', {
          onResult: () => {
            if (++results === 200) throw failure;
          },
        }),
      ).rejects.toBe(failure);
      expect(tableOpen()).toBe(false);
    },
  );

  it('a record written in parts reads back as the record whole', () => {
    const head = { type: 'plan' as const, suite: 's', file: 'f', service: 'router', requested_model: 'm' };
    const cases = [1, 2, 3, 4, 5].map((n) => ({ id: `c-${n}`, ordinal: n, repeat: 1 as const }));
    const parts = [cases.slice(0, 2), cases.slice(2, 4), cases.slice(4), []];
    const line = parts.map((part, i) => planLinePart({ ...head, cases: part }, i === 0)).join('') + ']}';
    expect(JSON.parse(line)).toEqual({ ...head, cases });
  });
});
