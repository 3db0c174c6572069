import { appendFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HistoryNights } from '../../src/history/columns.js';
import { type CaseNight, nightsByCase } from '../../src/history/nights.js';
import { trendPageData } from '../../src/history/page/data.js';
import { readHistory } from '../../src/stored/history/read.js';
import { appendBaselineAccepted, appendRun } from '../../src/stored/history/store.js';
import { trendOf } from '../../src/history/trends.js';
import type { History } from '../../src/stored/history/types.js';
import { makeCase, makeRun } from './fixture.js';
import { historyAnnotator } from '../../src/history/tonight.js';
import { historyCase, historyRun } from '../../src/history/from-report-v2.js';
import { makeEntry, reportOf } from '../helpers/entries.js';

/** What a trend reads of a night: the run's id and the case's counts. */
const seen = (nights: readonly CaseNight[] | undefined) =>
  (nights ?? []).map(({ run, entry }) => ({
    run: run.run_id,
    suite: entry.suite,
    case: entry.case,
    status: entry.status,
    passes: entry.passes,
    samples: entry.samples,
    tools: entry.tools,
    ttft: entry.ttft_p50_ms ?? null,
  }));

describe('HistoryNights: the nights readHistory gives, as columns', () => {
  let dir: string;
  let history: History;
  let columns: HistoryNights;
  const ids: string[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'driftcheck-history-columns-'));
    // 40 nights over two months, appended out of order, of 1,500 cases that come and go,
    // one case with tools, a second suite, a paused night appended again once resumed,
    // a baseline accepted midway, and a damaged line.
    const order = Array.from({ length: 40 }, (_, i) => i).sort((a, b) => ((a * 7) % 40) - ((b * 7) % 40));
    for (const night of order) {
      const run = makeRun(night, {
        suites: [
          { suite: 'support', models: ['acme/chat-1'], providers: ['Acme'], baseline_source_run: null },
          { suite: 'tools', models: ['acme/chat-1'], providers: ['Acme'], baseline_source_run: null },
        ],
      });
      const cases = [];
      for (let c = 0; c < 1500; c++) {
        if ((c + night) % 13 === 0) continue;
        const passes = c % 17 === 0 && night > 25 ? 4 : 10;
        cases.push(
          makeCase(`case-${c}`, {
            passes,
            status: passes === 10 ? 'pass' : 'fail',
            samples: 10,
            // Some nights a few cases answer slower, report no cost, or are not timed.
            drift_kinds:
              (c + night) % 97 === 0 || (night === 9 && c === 5)
                ? ['latency_changed']
                : c === 21 && night === 12
                  ? ['ttft_changed']
                  : [],
            cost: c % 5 === 0 ? null : 0.001 * (1 + ((c + night) % 3)),
            latency_p50_ms: c % 11 === 0 ? null : 500 + ((c * 7 + night) % 300),
            latency_p95_ms: c % 11 === 0 ? null : 900 + ((c * 13 + night) % 500),
            // Every seventh case is streamed on even nights (its slot beyond a night's first columns too).
            ...(c % 7 === 0 && night % 2 === 0 ? { ttft_p50_ms: 200 + ((c + night) % 100) } : {}),
          }),
        );
      }
      cases.push(
        makeCase('calls', {
          suite: 'tools',
          samples: night % 3 === 0 ? 5 : 10,
          passes: 5,
          status: 'fail',
          tools: { answered: 5, triggered: 4, valid: night % 4 },
        }),
      );
      // A case of the suite no baseline reset, fading after night 30: a slow drift to find.
      cases.push(
        makeCase('fading', {
          suite: 'tools',
          passes: night > 30 ? 6 : 10,
          status: night > 30 ? 'fail' : 'pass',
        }),
      );
      if (night === 20) {
        await appendRun(dir, { ...run, status: 'paused' }, cases.slice(0, 700));
        await appendRun(
          dir,
          { ...run, finished_at: new Date(Date.parse(run.finished_at) + 1).toISOString() },
          cases,
        );
      } else await appendRun(dir, run, cases);
    }
    await appendBaselineAccepted(dir, {
      suite: 'support',
      source_run: makeRun(30).run_id,
      at: makeRun(30).finished_at,
    });
    await appendFile(join(dir, '2026-11.jsonl'), '{"s":"support","c":"torn\n');
    // More samples than a night's columns count (2³¹): not a real night, passed over by both readers.
    await appendFile(join(dir, '2026-11.jsonl'), '{"s":"support","c":"huge","n":2147483648,"k":0}\n');
    history = await readHistory(dir);
    columns = await HistoryNights.read(dir);
    ids.push(
      'support/case-0',
      'support/case-17',
      'support/case-1',
      'support/case-12',
      'tools/calls',
      'support/none',
    );
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("gives each case's nights, in time order, the paused night's second append counted once", () => {
    const index = nightsByCase(history);
    expect(history.runs).toHaveLength(40);
    for (const id of ids) expect(seen(columns.nightsOf(id)), id).toEqual(seen(index.get(id)));
    expect(columns.nightsOf('support/case-1')).toHaveLength(40 - 3);
    expect(seen(columns.nightsOf('tools/calls'))[3]!.tools).toEqual({ answered: 5, triggered: 4, valid: 3 });
    expect(columns.nightsOf('support/none')).toEqual([]);
    // Every case, not only those looked at.
    let checked = 0;
    for (const [id, nights] of index) {
      expect(seen(columns.nightsOf(id))).toEqual(seen(nights));
      checked++;
    }
    expect(checked).toBe(1502);
  });

  it('makes the trend page the history read whole makes: every case, suite figure and event', () => {
    const link = 'reports/{run}/report.html#{suite}/{case}';
    const page = trendPageData(columns, link);
    expect(page).toEqual(trendPageData(history, link));
    expect(page.cases).toHaveLength(1502);
    expect(page.suites.find((s) => s.suite === 'support')!.events.map((e) => e.kind)).toContain(
      'latency_changed',
    );
    expect(page.suites.find((s) => s.suite === 'tools')!.tools).toHaveLength(40);
    // The streamed cases' time to first token: on even nights only, and none for the suite never streamed.
    const ttft = page.suites.find((s) => s.suite === 'support')!.ttft!;
    expect(ttft.map((t) => t !== null)).toEqual(Array.from({ length: 40 }, (_, i) => i % 2 === 0));
    expect(page.suites.find((s) => s.suite === 'tools')!.ttft).toBeUndefined();
    expect(page.suites.find((s) => s.suite === 'support')!.events).toContainEqual({
      night: 12,
      kind: 'ttft_changed',
      text: 'time to first token changed: case-21',
    });
    expect(page.cases.find((c) => c.id === 'support/case-1407')!.ttft![38]).toBe(200 + ((1407 + 38) % 100));
    expect(columns.caseCount()).toBe(1502);
  });

  it('keeps the baseline events and the damaged lines, and the trend read from it is the same', () => {
    expect(columns.baselines).toEqual(history.baselines);
    expect(columns.problems).toEqual(history.problems);
    expect(columns.problems.map((p) => p.reason)).toEqual([
      'not JSON (a torn or hand-edited line?)',
      'case line without suite, case or sample counts',
    ]);
    const index = nightsByCase(history);
    for (const id of ['support/case-17', 'tools/fading'])
      expect(trendOf(columns, columns.nightsOf(id))).toEqual(trendOf(history, index.get(id)!));
    expect(trendOf(columns, columns.nightsOf('tools/fading'))).toMatchObject({
      kind: 'pass_rate_trending_down',
    });
  });
});

describe("tonight's case lines wait in a spill until the history takes them", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'driftcheck-tonight-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('gives back every line in the order folded, past what the spill holds, and appends the same text', async () => {
    const entries = Array.from({ length: 8000 }, (_, i) =>
      makeEntry({ case: `case-${i}`, status: i % 9 === 0 ? 'fail' : 'pass' }),
    );
    const report = reportOf(entries);
    const history = await HistoryNights.read(join(dir, 'none'));
    const tonight = { id: report.run.id, started_at: report.run.started_at };
    const annotator = historyAnnotator(history, tonight, dir);
    const annotate = annotator.annotate({ suite: report.suites[0]!, baseline: null });
    for (const e of entries) annotate(e);
    // Past 2,000 lines (and a megabyte) the spill writes a file of its own in the folder given.
    expect((await readdir(dir)).some((name) => name.endsWith('.spill'))).toBe(true);
    const run = historyRun(report.run, report.suites);
    await appendRun(join(dir, 'spilled'), run, annotator.lines());
    await appendRun(join(dir, 'held'), run, entries.map(historyCase));
    const month = (await readdir(join(dir, 'held')))[0]!;
    const text = await readFile(join(dir, 'spilled', month), 'utf8');
    expect(text).toBe(await readFile(join(dir, 'held', month), 'utf8'));
    expect(text.trimEnd().split('\n')).toHaveLength(8001);
    // Read once, the spill is gone.
    expect((await readdir(dir)).filter((name) => name.endsWith('.spill'))).toEqual([]);
  });
});
