import { beforeAll, describe, expect, it } from 'vitest';
import { compareRuns, type FoldedRun, type InMemoryRun, viewOf } from '../../src/compare/compare.js';
import { compareExit } from '../../src/compare/exit.js';
import { renderCompareMarkdown } from '../../src/compare/markdown.js';
import { renderCandidateComparison } from '../../src/compare/console.js';
import { wilsonInterval } from '../../src/stats/wilson.js';
import type { Comparison } from '../../src/compare/types.js';
import type { CaseEntry, RunInfo } from '../../src/stored/report/types.js';
import type { Drift } from '../../src/record/drift-kinds.js';
import { makeEntry, reportOf } from '../helpers/entries.js';
import { contentDrift, regressedDrift } from '../report/fixture.js';

const fixed: Drift = {
  kind: 'fixed',
  severity: 'info',
  baseline: 'fail',
  current: 'pass',
  message: 'fixed: failed in the baseline, passes now',
};
const newCase: Drift = {
  kind: 'new_case',
  severity: 'info',
  baseline: null,
  current: null,
  message: 'new case',
};

function run(label: string, cases: CaseEntry[], info: Partial<RunInfo> = {}): InMemoryRun {
  const report = reportOf(cases);
  const folded: FoldedRun = {
    dir: `reports/${label}`,
    head: { ...report, run: { ...report.run, id: `run-${label}`, ...info } },
    cases: report.cases,
  };
  return { label, run: folded };
}

const failing = {
  status: 'fail' as const,
  checks: [{ type: 'contains' as const, pass: false, message: 'no "30 days"' }],
};

describe('compareRuns against the baseline the candidates ran against', () => {
  const a = run('model-a', [
    makeEntry({ case: 'regressed', ...failing, content: 'Within 14 days.' }, [
      regressedDrift(),
      contentDrift('Within 30 days.', 'Within 14 days.', 0.8),
    ]),
    makeEntry({ case: 'fixed' }, [fixed]),
    makeEntry({ case: 'changed', content: 'Thirty days, yes.' }, [
      contentDrift('Within 30 days.', 'Thirty days, yes.', 0.4),
    ]),
    makeEntry({ case: 'same', content: 'Same words.' }),
    makeEntry({ case: 'new' }, [newCase]),
    makeEntry({ case: 'stopped', status: 'not_run', content: null, usage: null, latency_ms: null }),
  ]);
  const b = run('model-b', [makeEntry({ case: 'regressed', suite: 'other' })], {
    skipped_suites: [{ suite: 'refunds', reason: 'the router does not list it' }],
  });
  let comparison: Comparison;
  beforeAll(async () => {
    comparison = await compareRuns({ kind: 'baseline', cases: [] }, [a, b]);
  });
  const change = (id: string, i = 0) => comparison.cases.find((r) => r.id === id)!.cells[i]!.change;

  it('reads each case against the baseline from the drift its run was folded with', () => {
    expect(comparison.cases.map((r) => r.id)).toEqual([
      'refunds/regressed',
      'refunds/fixed',
      'refunds/changed',
      'refunds/same',
      'refunds/new',
      'refunds/stopped',
      'other/regressed',
    ]);
    expect(comparison.cases.slice(0, 6).map((r) => r.cells[0]!.change)).toEqual([
      'regressed',
      'fixed',
      'changed',
      'same',
      'new',
      'not_run',
    ]);
    expect(change('refunds/changed')).toBe('changed');
    expect(comparison.cases.find((r) => r.id === 'refunds/changed')!.cells[0]!.similarity).toBe(0.4);
    // model-b skipped the suite: its cells say so, not "not run".
    expect(comparison.cases.slice(0, 6).map((r) => r.cells[1]!.change)).toEqual(Array(6).fill('skipped'));
    // Not in model-a's run at all (never planned there): missing, not "not run".
    expect(change('other/regressed', 0)).toBe('missing');
    expect(comparison.skipped_suites).toEqual([
      { suite: 'refunds', reason: 'the router does not list it', candidates: ['model-b'] },
    ]);
  });

  it("gives the baseline's answer and verdict where the drift reveals them", () => {
    const regressed = comparison.cases[0]!.reference;
    expect(regressed).toEqual({ status: 'pass', samples: null, content: 'Within 30 days.' });
    expect(comparison.cases[1]!.reference.status).toBe('fail');
    // Unchanged: the candidate answered as the baseline did.
    expect(comparison.cases[3]!.reference).toMatchObject({ status: 'pass', content: 'Same words.' });
    expect(comparison.cases[4]!.reference).toEqual({ status: null, samples: null, content: null });
  });

  it('counts every candidate once: outcomes, changes, Wilson interval, tokens, cost per 1,000 cases', () => {
    const [sa, sb] = comparison.candidates;
    expect(sa).toMatchObject({ cases: 6, passed: 4, failed: 1, errored: 0, not_run: 1, skipped: 0 });
    // refunds/stopped was planned and never answered: not run; other/regressed is not in its
    // run and not of a suite it skipped: missing.
    expect(sa!.changes).toEqual({
      regressed: 1,
      fixed: 1,
      changed: 1,
      same: 1,
      new: 1,
      missing: 1,
      not_run: 1,
      skipped: 0,
    });
    const w = wilsonInterval(4, 5);
    expect(sa!.pass_rate).toEqual({
      passed: 4,
      total: 5,
      rate: 0.8,
      low: Math.round(w.low * 1e4) / 1e4,
      high: Math.round(w.high * 1e4) / 1e4,
    });
    expect(sa!.tokens.total).toBe(5 * 120);
    expect(sb!.skipped).toBe(6);
    expect(sb!.changes.not_run).toBe(0);
  });
});

describe('compareRuns against a run', () => {
  const night1 = run('night-1', [
    makeEntry({ case: 'a' }),
    makeEntry({ case: 'b', ...failing }),
    makeEntry({ case: 'c', content: 'Refunds within 30 days.' }),
    makeEntry({ case: 'd', content: 'Refunds within 30 days.' }),
    makeEntry({ case: 'gone' }),
  ]);
  const night2 = run('night-2', [
    makeEntry({ case: 'a', ...failing }),
    makeEntry({ case: 'b' }),
    makeEntry({ case: 'c', content: 'Refunds within 30 days.' }),
    makeEntry({ case: 'd', content: 'We take returns for a fortnight only.' }),
    makeEntry({ case: 'added' }),
  ]);
  let comparison: Comparison;
  beforeAll(async () => {
    comparison = await compareRuns({ kind: 'run', label: 'night-1', run: night1.run }, [night2]);
  });

  it('compares verdicts and answers case by case', () => {
    const changes = Object.fromEntries(comparison.cases.map((r) => [r.case, r.cells[0]!.change]));
    expect(changes).toEqual({
      a: 'regressed',
      b: 'fixed',
      c: 'same',
      d: 'changed',
      gone: 'missing',
      added: 'new',
    });
    const d = comparison.cases.find((r) => r.case === 'd')!;
    expect(d.reference).toEqual({
      status: 'pass',
      samples: { passed: 1, sent: 1 },
      content: 'Refunds within 30 days.',
    });
    expect(d.cells[0]!.similarity).toBeGreaterThan(0);
    expect(d.cells[0]!.similarity).toBeLessThan(1);
    expect(comparison.reference).toEqual({
      kind: 'run',
      label: 'night-1',
      run_id: 'run-night-1',
      dir: 'reports/night-1',
    });
  });

  it('exits 1 when a candidate regressed or left a case unanswered, and keeps the code of a run that stopped', async () => {
    expect(compareExit(comparison)).toBe(1);
    const same = await compareRuns({ kind: 'run', label: 'n', run: night1.run }, [night1]);
    expect(compareExit(same)).toBe(0);
    const paused = await compareRuns({ kind: 'run', label: 'n', run: night1.run }, [
      run('paused', night1.run.cases as CaseEntry[], { exit_code: 3, status: 'paused' }),
      night2,
    ]);
    expect(compareExit(paused)).toBe(3);
  });

  it('exits 1 for a candidate that shares no case with the reference: compared with nothing, it did not pass', async () => {
    const other = run('other-suite', [makeEntry({ case: 'x', suite: 'elsewhere' })]);
    const disjoint = await compareRuns({ kind: 'run', label: 'n', run: night1.run }, [other]);
    expect(disjoint.candidates[0]!.changes.regressed).toBe(0);
    expect(disjoint.candidates[0]!.verdict.cases).toBe(0);
    expect(compareExit(disjoint)).toBe(1);
    // Against baselines that hold none of its cases, the same.
    expect(compareExit(await compareRuns({ kind: 'baseline', cases: [] }, [night1]))).toBe(1);
  });
});

describe('candidate figures', () => {
  const priced = (id: string, cost: number, status: 'pass' | 'fail', latency: number, provider: string) =>
    makeEntry({
      case: id,
      status,
      latency_ms: latency,
      provider,
      usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20, cost },
    });
  const cheapBad = run('cheap-bad', [
    priced('a', 0.001, 'pass', 100, 'Groq'),
    priced('b', 0.001, 'fail', 300, 'Groq'),
  ]);
  const dearGood = run('dear-good', [
    priced('a', 0.01, 'pass', 50, 'OpenAI'),
    priced('b', 0.01, 'pass', 70, 'Azure'),
  ]);
  const dearBad = run('dear-bad', [priced('a', 0.02, 'pass', 10, 'X'), priced('b', 0.02, 'fail', 20, 'X')]);
  const unpriced = run('unpriced', [makeEntry({ case: 'a' }), makeEntry({ case: 'b' })]);
  let comparison: Comparison;
  beforeAll(async () => {
    comparison = await compareRuns({ kind: 'baseline', cases: [] }, [cheapBad, dearGood, dearBad, unpriced]);
  });

  it('marks the cost/pass-rate frontier, and leaves a candidate without cost off it', () => {
    expect(comparison.candidates.map((c) => [c.label, c.pareto])).toEqual([
      ['cheap-bad', true],
      ['dear-good', true],
      ['dear-bad', false],
      ['unpriced', null],
    ]);
    expect(comparison.candidates[0]!.cost).toEqual({ total: 0.002, cases_with_cost: 2, per_1000_cases: 1 });
  });

  it('gives latency p50/p95 over the samples and the providers that served', () => {
    expect(comparison.candidates[0]!.latency_ms).toEqual({ p50: 100, p95: 300, samples: 2 });
    expect(comparison.candidates[1]!.providers).toEqual([
      { name: 'Azure', cases: 1 },
      { name: 'OpenAI', cases: 1 },
    ]);
  });

  it('pools tool-call trigger and valid-call rates over the cases that asked with tools', async () => {
    const use = (answered: number, triggered: number, valid: number) => ({
      answered,
      triggered,
      valid,
      trigger_rate: triggered / answered,
      valid_rate: triggered ? valid / triggered : null,
      first: null,
      distinct: [],
      other_calls: 0,
    });
    const tools = run('tools', [
      { ...makeEntry({ case: 'x' }), tool_use: use(1, 1, 1) },
      { ...makeEntry({ case: 'y' }), tool_use: use(1, 1, 0) },
      { ...makeEntry({ case: 'z' }), tool_use: use(1, 0, 0) },
      { ...makeEntry({ case: 'plain' }), tool_use: null },
    ]);
    const [summary] = (await compareRuns({ kind: 'baseline', cases: [] }, [tools])).candidates;
    expect(summary!.tools).toEqual({
      cases: 3,
      answered: 3,
      triggered: 2,
      valid: 1,
      trigger_rate: 0.6667,
      valid_rate: 0.5,
    });
  });

  it('names a provider that could not serve, and its error kinds', async () => {
    const routing = run(
      'openai',
      [
        makeEntry({
          case: 'a',
          status: 'error',
          content: null,
          error: {
            kind: 'routing',
            message: 'No provider meets your routing requirements',
            http_status: 503,
          } as never,
        }),
        makeEntry({ case: 'b' }),
      ],
      { candidate_provider: 'openai' },
    );
    const comparison2 = await compareRuns({ kind: 'baseline', cases: [] }, [routing]);
    const [summary] = comparison2.candidates;
    expect(summary!.unserved).toEqual([
      {
        suite: 'refunds',
        model: 'openai/gpt-4o-mini',
        cases: 1,
        total: 2,
        message: 'No provider meets your routing requirements',
      },
    ]);
    expect(summary!.error_kinds).toEqual({ routing: 1 });
    expect(compareExit(comparison2)).toBe(1);
  });

  it('the console table and compare.md render the same counts', () => {
    const table = renderCandidateComparison(viewOf(comparison));
    expect(table).toMatch(/passed \/ total\s+│ 1 \/ 2\s+│ 2 \/ 2\s+│ 1 \/ 2\s+│ 2 \/ 2\s+│/);
    const md = renderCompareMarkdown(viewOf(comparison));
    expect(md).toContain('| cost per 1,000 cases | $1.0000 ★ | $10.0000 ★ | $20.0000 | not reported |');
    expect(md).toContain('| pass rate | 50% (1/2; 95% CI 9%–91%) |');
  });
});
