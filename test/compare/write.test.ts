import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareRuns, type FoldedRun, ComparisonRows, viewOf } from '../../src/compare/compare.js';
import { renderCompareHtml } from '../../src/compare/html/render.js';
import { renderCompareMarkdown } from '../../src/compare/markdown.js';
import { ComparedSide } from '../../src/compare/side.js';
import { writeComparison } from '../../src/compare/write.js';
import { SPILL_HOLD } from '../../src/fold/spill.js';
import { publishReport } from '../../src/fold/published.js';
import { renderCandidateComparison } from '../../src/compare/console.js';
import type { CaseEntry } from '../../src/stored/report/types.js';
import type { Comparison } from '../../src/compare/types.js';
import { makeEntry, reportOf } from '../helpers/entries.js';
import { contentDrift, regressedDrift } from '../report/fixture.js';

/** More cases than a spill holds in memory: each run's kept cases go through its file. */
const CASES = SPILL_HOLD + 700;

function folded(label: string, cases: CaseEntry[]): FoldedRun {
  const report = reportOf(cases);
  return { dir: null, head: { ...report, run: { ...report.run, id: `run-${label}` } }, cases: report.cases };
}

/** compare.json as writeComparison lays it out: JSON.stringify(…, null, 2)'s, each case row on one line. */
function laidOut(comparison: Comparison): string {
  const rows = comparison.cases.map((row) => `    ${JSON.stringify(row)}`).join(',\n');
  const text = JSON.stringify({ ...comparison, cases: [] }, null, 2);
  return `${comparison.cases.length ? text.replace('"cases": []', `"cases": [\n${rows}\n  ]`) : text}\n`;
}

/** A run read as the commands read one: a case at a time, into a side that spills past SPILL_HOLD. */
function sideOf(run: FoldedRun, expected = 0): ComparedSide {
  const side = new ComparedSide(run.dir, expected);
  const published = publishReport({ ...run.head, cases: [...run.cases] });
  for (const c of published.cases) side.add(c);
  side.head = run.head;
  side.totals = published.totals;
  return side;
}

const answer = (i: number, changed: boolean) =>
  `Refunds within ${changed && i % 7 === 0 ? 14 : 30} days (case ${i}).`;

function night(label: string, changed: boolean, ids: number[]): FoldedRun {
  return folded(
    label,
    ids.map((i) =>
      makeEntry({
        case: `c${i}`,
        status: changed && i % 11 === 0 ? 'fail' : 'pass',
        content: answer(i, changed),
        latency_ms: 100 + (i % 50),
        usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, cost: 0.0001 * (1 + (i % 3)) },
      }),
    ),
  );
}

describe('writeComparison streams rows from runs read a case at a time', () => {
  let dir: string;
  const all = Array.from({ length: CASES }, (_, i) => i);
  // The reference lacks the last cases; one candidate has them in another order (and lacks
  // a few), so rows join runs whose cases come in different orders.
  const reference = night('ref', false, all.slice(0, CASES - 5));
  const shuffled = [...all].reverse().filter((i) => i % 97 !== 3);
  const a = night('a', true, shuffled);
  const b = night('b', false, all);
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'driftcheck-compare-write-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('writes compare.json, compare.md and compare.html as a comparison made in memory renders them', async () => {
    const whole = await compareRuns({ kind: 'run', label: 'ref', run: reference }, [
      { label: 'a', run: a },
      { label: 'b', run: b },
    ]);
    const sides = [sideOf(reference, CASES), sideOf(a), sideOf(b, CASES)];
    const out = join(dir, 'by-run');
    const { files, view } = await writeComparison(
      out,
      new ComparisonRows({ kind: 'run', label: 'ref', side: sides[0]! }, [
        { label: 'a', side: sides[1]! },
        { label: 'b', side: sides[2]! },
      ]),
    );
    for (const side of sides) await side.discard();
    expect(files.map((f) => f.slice(out.length + 1))).toEqual(['compare.json', 'compare.md', 'compare.html']);
    expect(await readFile(join(out, 'compare.json'), 'utf8')).toBe(laidOut(whole));
    expect(JSON.parse(await readFile(join(out, 'compare.json'), 'utf8'))).toEqual(whole);
    expect(await readFile(join(out, 'compare.html'), 'utf8')).toBe(renderCompareHtml(whole));
    expect(await readFile(join(out, 'compare.md'), 'utf8')).toBe(renderCompareMarkdown(viewOf(whole)));
    expect(renderCandidateComparison(view)).toBe(renderCandidateComparison(viewOf(whole)));
    // What the rows say: every case of every run, the reference's first, each run's answers in place.
    expect(whole.cases).toHaveLength(CASES);
    expect(whole.cases.at(-1)!.reference.status).toBeNull();
    const row = whole.cases.find((r) => r.case === 'c77')!;
    expect(row.cells.map((c) => [c.change, c.content])).toEqual([
      ['regressed', answer(77, true)],
      ['same', answer(77, false)],
    ]);
    // a's run lacks c3 (never planned there): missing.
    expect(whole.cases.find((r) => r.case === 'c3')!.cells[0]!.change).toBe('missing');
    // Failing now where the reference passed: a's multiples of 11 that the reference ran.
    expect(whole.candidates[0]!.changes.regressed).toBe(
      shuffled.filter((i) => i % 11 === 0 && i < CASES - 5).length,
    );
    // Nothing is left behind by the sides or the spooled files.
    expect((await readdir(out)).sort()).toEqual(['compare.html', 'compare.json', 'compare.md']);
  });

  it('against baselines read by id, as the drift of each run says', async () => {
    const withDrift = folded('drifted', [
      makeEntry({ case: 'r', status: 'fail', content: 'Within 14 days.' }, [
        regressedDrift(),
        contentDrift('Within 30 days.', 'Within 14 days.', 0.8),
      ]),
      makeEntry({ case: 's', content: 'Same.' }),
    ]);
    const baseline = [
      { id: 'refunds/r', samples: { pass: 1, total: 1 }, cost: 0.001, latency_ms: [5] },
      { id: 'refunds/s', samples: { pass: 1, total: 1 }, cost: 0.001, latency_ms: [5] },
    ];
    const whole = await compareRuns({ kind: 'baseline', cases: baseline }, [{ label: 'x', run: withDrift }]);
    const side = sideOf(withDrift);
    const asked: string[] = [];
    const out = join(dir, 'by-baseline');
    await writeComparison(
      out,
      new ComparisonRows(
        {
          kind: 'baseline',
          verdictCase: (suite, caseId) => {
            asked.push(`${suite}/${caseId}`);
            return Promise.resolve(baseline.find((c) => c.id === `${suite}/${caseId}`) ?? null);
          },
        },
        [{ label: 'x', side }],
      ),
    );
    expect(asked).toEqual(['refunds/r', 'refunds/s']);
    expect(await readFile(join(out, 'compare.json'), 'utf8')).toBe(laidOut(whole));
    expect(whole.cases[0]!.reference).toEqual({ status: 'pass', samples: null, content: 'Within 30 days.' });
    expect(whole.candidates[0]!.verdict).toMatchObject({ cases: 2, regressions: 1 });
  });

  it("keeps a case's name that is not its id after the suite's (a report.json edited by hand)", async () => {
    const odd = { ...makeEntry({ case: 'named' }), id: 'refunds/other-id' };
    const whole = await compareRuns({ kind: 'baseline', cases: [] }, [
      { label: 'x', run: folded('odd', [odd, makeEntry({ case: 'plain' })]) },
    ]);
    expect(whole.cases.map((r) => [r.id, r.suite, r.case])).toEqual([
      ['refunds/other-id', 'refunds', 'named'],
      ['refunds/plain', 'refunds', 'plain'],
    ]);
  });

  it('writes no rows as an empty list', async () => {
    const empty = folded('none', []);
    const whole = await compareRuns({ kind: 'baseline', cases: [] }, [{ label: 'x', run: empty }]);
    const out = join(dir, 'empty');
    await writeComparison(
      out,
      new ComparisonRows({ kind: 'baseline', verdictCase: () => null }, [
        { label: 'x', side: sideOf(empty) },
      ]),
    );
    expect(await readFile(join(out, 'compare.json'), 'utf8')).toBe(laidOut(whole));
    expect(whole.cases).toEqual([]);
  });
});
