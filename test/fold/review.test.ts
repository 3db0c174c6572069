import { describe, expect, it } from 'vitest';
import {
  countOf,
  RATE_ORDER,
  REVIEW_ORDER,
  REVIEW_RANK,
  reviewCase,
  type Reviewed,
  Shortlist,
} from '../../src/fold/review.js';
import type { Drift } from '../../src/record/drift-kinds.js';
import type { PassRate } from '../../src/stored/report/types.js';
import { caseDetail } from '../../src/stored/report/case-line.js';

const drift = (severity: Drift['severity'], kind: Drift['kind'] = 'content_changed'): Drift => ({
  kind,
  severity,
  baseline: null,
  current: null,
  message: `${kind} (${severity})`,
});
const rate = (verdict: PassRate['verdict']): PassRate => ({
  rate: 0.5,
  low: 0.2,
  high: 0.8,
  baseline: { pass: 10, total: 10 },
  p: 0.01,
  verdict,
});
const of = (status: Reviewed['status'], d: Drift[] = [], pass_rate: PassRate | null = null): Reviewed => ({
  status,
  drift: d,
  pass_rate,
});

describe("a case's review class, decided once by the fold", () => {
  // Each row: a case, its class, and what CI makes of it.
  const table: [string, Reviewed, string, string][] = [
    [
      'a pass that regressed (its checks pass)',
      of('pass', [drift('fail', 'regressed')]),
      'regressed',
      'failure',
    ],
    ['an error that regressed', of('error', [drift('fail', 'new_error')]), 'regressed', 'error'],
    ['a failure that regressed', of('fail', [drift('fail', 'regressed')]), 'regressed', 'failure'],
    ['an error with drift to review', of('error', [drift('warn')]), 'errored', 'error'],
    ['a failure', of('fail'), 'failed', 'failure'],
    ['a pass with drift to review', of('pass', [drift('warn', 'model_changed')]), 'drift_warn', 'pass'],
    [
      'a case not run with a warning',
      of('not_run', [drift('warn', 'pass_rate_trending_down')]),
      'drift_warn',
      'skipped',
    ],
    ['a case not run', of('not_run', [drift('info')]), 'not_run', 'skipped'],
    ['a pass whose answer moved a little', of('pass', [drift('info')]), 'drift_info', 'pass'],
    ['a new pass', of('pass', [drift('info', 'new_case')]), 'passed', 'pass'],
    ['a pass', of('pass'), 'passed', 'pass'],
  ];
  it.each(table)('%s', (_what, c, review, outcome) => {
    expect(reviewCase(c)).toMatchObject({ review, outcome, rate: null });
  });

  it('orders the classes worst first, each a rank report.html sorts by', () => {
    expect(REVIEW_ORDER).toEqual([
      'regressed',
      'errored',
      'failed',
      'drift_warn',
      'not_run',
      'drift_info',
      'passed',
    ]);
    expect(REVIEW_ORDER.map((k) => REVIEW_RANK[k])).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('calls every brief case passed (report.html fills in its rank from that alone)', () => {
    const brief = {
      status: 'pass' as const,
      samples: { planned: 3, sent: 3, passed: 3, failed: 0, errored: 0, not_run: 0 },
      drift: [drift('info', 'new_case')],
      redacted: false,
      pass_rate: rate('new'),
    };
    expect(caseDetail(brief)).toBe('brief');
    expect(reviewCase(brief).review).toBe('passed');
  });

  it("ranks a repeated case's pass rate: failing, then its test's verdict", () => {
    expect(reviewCase(of('fail', [drift('fail', 'pass_rate_dropped')], rate('dropped'))).rate).toBe(
      'failing',
    );
    expect(reviewCase(of('error', [drift('fail', 'pass_rate_dropped')], rate('dropped'))).rate).toBe(
      'dropped',
    );
    for (const verdict of ['flaky', 'new', 'stable'] as const)
      expect(reviewCase(of('pass', [], rate(verdict))).rate).toBe(verdict);
    expect(RATE_ORDER).toEqual(['failing', 'dropped', 'flaky', 'new', 'stable']);
  });

  it('adds counts of several classes', () => {
    expect(countOf<'a' | 'b' | 'c'>({ a: 2, b: 3, c: 5 }, ['a', 'c'])).toBe(7);
  });
});

describe('Shortlist: what a view keeps of the cases it lists', () => {
  const order = ['worst', 'bad', 'ok'] as const;

  it('gives them back class by class in the order, plan order within a class', () => {
    const list = new Shortlist<(typeof order)[number], string>(order, 10);
    for (const [k, item] of [
      ['ok', 'o1'],
      ['bad', 'b1'],
      ['worst', 'w1'],
      ['bad', 'b2'],
      ['worst', 'w2'],
    ] as const)
      list.add(k, item);
    expect(list.worstFirst()).toEqual(['w1', 'w2', 'b1', 'b2', 'o1']);
    expect(list.worstFirst(['bad', 'ok'])).toEqual(['b1', 'b2', 'o1']);
    // A heading over two classes lists them as the plan had them.
    expect(list.inPlanOrder(['worst', 'bad'])).toEqual(['b1', 'w1', 'b2', 'w2']);
  });

  it('keeps only the first few of each class, however many come', () => {
    const list = new Shortlist<(typeof order)[number], number>(order, 3);
    for (let i = 0; i < 10_000; i++) list.add(order[i % 3]!, i);
    expect(list.worstFirst()).toEqual([0, 3, 6, 1, 4, 7, 2, 5, 8]);
  });

  it('refuses a class outside its order', () => {
    const list = new Shortlist<string, number>(['a'], 1);
    expect(() => list.add('b', 1)).toThrow(/no class b/);
  });
});
