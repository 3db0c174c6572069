import { describe, expect, it } from 'vitest';
import { judgeBaselineDigest } from '../../../src/checks/judge.js';
import type { Expectation } from '../../../src/checks/registry.js';
import { countSuite, emptySummary, exitCodeFor } from '../../../src/fold/summary.js';
import type { PlanRecord } from '../../../src/stored/journal/records.js';
import { StoredMatch, type StoredRun } from '../../../src/run/recheck/match.js';
import { type JudgeContext, recheckSample } from '../../../src/run/recheck/sample.js';
import { type PlannedCaseGroup, planCases } from '../../../src/run/plan.js';
import { type BaselineContent, type PlanCaseOptions, planLine } from '../../../src/run/plan-records.js';
import { parseSuite } from '../../../src/suite/parse.js';
import type { Suite } from '../../../src/suite/types.js';
import type { JudgeSpec } from '../../../src/checks/judge.js';
import type { CheckResult } from '../../../src/checks/registry.js';
import { makeEntry } from '../../helpers/entries.js';
import { sampleResult } from '../../helpers/results.js';

const RUBRIC: JudgeSpec = { model: 'openai/gpt-4o-mini', rubric: 'must mention "30 days"' };
const SAME_AS_BASELINE: JudgeSpec = { model: 'openai/gpt-4o-mini', equivalent_to_baseline: true };
const judged = (spec: JudgeSpec, verdict: 'pass' | 'fail'): CheckResult => ({
  type: 'judge',
  pass: verdict === 'pass',
  message: `judge openai/gpt-4o-mini: ${verdict}`,
  judge: { model: 'openai/gpt-4o-mini-2024-07-18', usage: null, verdict, reason: spec.rubric ?? 'same' },
});
const context = (over: Partial<JudgeContext> = {}): JudgeContext => ({
  runId: 'R1',
  asked: [RUBRIC],
  baselineContent: null,
  sameBaseline: false,
  ...over,
});
const contains = (value: string): Expectation => ({ type: 'contains', value });
const judge = (value: JudgeSpec): Expectation => ({ type: 'judge', value });

/** What the run's request and today's baseline add to a check's context: none of these checks reads them. */
type Args = Parameters<typeof recheckSample>;
const recheck = (stored: Args[0], expect_: Args[1], judges: Args[2]) =>
  recheckSample(stored, expect_, judges, {
    request: { model: stored.requested_model, messages: [], params: {} },
    baseline: null,
  });

describe("recheckSample: a stored answer under today's checks", () => {
  const stored = sampleResult({
    case: 'window',
    checks: [{ type: 'contains', pass: true, message: 'contains "30 days"' }, judged(RUBRIC, 'pass')],
  });

  it("runs today's local checks on the stored answer: a passing sample fails a changed check", () => {
    const out = recheck(stored, [contains('14 days'), judge(RUBRIC)], context());
    expect(out.status).toBe('fail');
    expect(out.checks[0]).toMatchObject({ type: 'contains', pass: false });
    expect(out.content).toBe(stored.content);
    expect(out.key).toBe(stored.key);
  });

  it('keeps the stored verdict of a judge that is the one the run asked (key order aside)', () => {
    const reordered = { rubric: RUBRIC.rubric!, model: RUBRIC.model } as JudgeSpec;
    const out = recheck(stored, [contains('30 days'), judge(reordered)], context());
    expect(out.status).toBe('pass');
    expect(out.checks[1]).toBe(stored.checks[1]);
  });

  it.each([
    [
      'a changed rubric',
      [judge({ ...RUBRIC, rubric: 'must mention "receipt"' })],
      context(),
      /not the one run R1 asked/,
    ],
    [
      'a journal that does not record its judges',
      [judge(RUBRIC)],
      context({ asked: null }),
      /does not record its judges/,
    ],
    [
      'a stored call that failed',
      [judge(RUBRIC)],
      context(),
      /run R1 has no verdict of it \(error\)/,
      { ...judged(RUBRIC, 'fail'), judge: { model: null, usage: null, verdict: 'error', reason: 'timeout' } },
    ],
  ])(
    'a judge it cannot keep (%s) is not evaluated and fails: it needs a call',
    (_, expect_, ctx, message, verdict?) => {
      const sample = verdict ? { ...stored, checks: [stored.checks[0]!, verdict] } : stored;
      const out = recheck(sample, expect_, ctx);
      expect(out.status).toBe('fail');
      const check = out.checks.at(-1)!;
      expect(check).toMatchObject({
        type: 'judge',
        pass: false,
        judge: { verdict: 'needs_call', usage: null },
      });
      expect(check.message).toMatch(message);
    },
  );

  it('keeps an equivalence verdict only against the same baseline answer; with none today, skips it as a run would', () => {
    const sample = { ...stored, checks: [judged(SAME_AS_BASELINE, 'pass')] };
    const asked = [SAME_AS_BASELINE];
    const same = recheck(
      sample,
      [judge(SAME_AS_BASELINE)],
      context({ asked, baselineContent: 'x', sameBaseline: true }),
    );
    expect(same.checks[0]).toBe(sample.checks[0]);
    const moved = recheck(
      sample,
      [judge(SAME_AS_BASELINE)],
      context({ asked, baselineContent: 'y', sameBaseline: false }),
    );
    expect(moved.checks[0]!.message).toMatch(/baseline answer it compares with changed since run R1/);
    const none = recheck(sample, [judge(SAME_AS_BASELINE)], context({ asked, baselineContent: null }));
    expect(none.checks[0]).toMatchObject({ pass: true, judge: { verdict: 'skipped' } });
  });

  it('an error stays an error with every check not evaluated; a refusal is checked as the answer it is', () => {
    const error = sampleResult({
      case: 'w',
      status: 'error',
      content: null,
      error: { kind: 'timeout', message: 'timed out', http_status: null, model: null } as never,
    });
    const out = recheck(error, [contains('x'), judge(RUBRIC)], context());
    expect(out.status).toBe('error');
    expect(out.checks.map((c) => c.message)).toEqual([
      'not evaluated: the call failed',
      'not evaluated: the call failed',
    ]);
    const refusal = sampleResult({
      case: 'w',
      status: 'error',
      content: null,
      refusal: "I can't help with that.",
      error: { kind: 'refusal', message: "I can't help with that.", http_status: 200, model: null } as never,
    });
    const refused = recheck(refusal, [{ type: 'not_contains', value: "can't" }], context());
    expect(refused.status).toBe('error');
    expect(refused.checks[0]).toMatchObject({ type: 'not_contains', pass: false });
  });
});

const SUITE = (cases: string, model = 'openai/gpt-4o-mini') => {
  const parsed = parseSuite(
    `suite: refunds\nservice: router\nmodel: ${model}\nsystem: Be brief.\ncases:\n${cases}`,
    'suites/refunds.yaml',
  );
  if (parsed.errors) throw new Error(JSON.stringify(parsed.errors));
  return parsed.value as Suite;
};
const CASE = (id: string, prompt = `Question ${id}?`, check = 'contains: x') =>
  `  - id: ${id}\n    prompt: "${prompt}"\n    expect: [{ ${check} }]\n`;

/** One suite's plan record as a run writes it (planLine), its parts joined. */
async function planRecords(
  cases: readonly PlannedCaseGroup[],
  baselineContent: BaselineContent,
  options?: PlanCaseOptions,
): Promise<PlanRecord[]> {
  const parts: PlanRecord[] = [];
  await planLine(cases, baselineContent, (part) => parts.push(part), options);
  return parts.length ? [{ ...parts[0]!, cases: parts.flatMap((p) => p.cases) }] : [];
}

/** Today's plan records matched with the stored run a case at a time, as a recheck makes them. */
async function matchStored(
  today: readonly PlannedCaseGroup[],
  stored: StoredRun,
  baselineContent: BaselineContent,
) {
  const match = new StoredMatch(stored);
  const plans = await planRecords(today, baselineContent, {
    sent: false,
    each: (group, made, record) => match.add(record, made, group.case.messages),
  });
  return { plans, rechecked: match.rechecked, not_answered: match.not_answered, dropped: match.dropped() };
}

describe("matchStored: today's plan against the stored run", () => {
  const runSuite = SUITE(CASE('kept') + CASE('reworded') + CASE('unanswered') + CASE('removed'));
  const stored = (plans: PlanRecord[], answered: string[], stopped = false): StoredRun => ({
    id: 'R1',
    plans: new Map(plans.map((p) => [p.suite, p])),
    answered: new Map(answered.map((key) => [key, 1])),
    stopped,
  });
  const runPlans = () => planRecords(planCases([runSuite]), () => null);
  const answered = ['refunds/kept', 'refunds/reworded', 'refunds/removed'];

  it('rechecks a case asked the same way; lists one added, reworded or not answered as not run, and one removed as dropped', async () => {
    const today = SUITE(
      CASE('kept') + CASE('reworded', 'Another question?') + CASE('unanswered') + CASE('added'),
    );
    const matched = await matchStored(
      planCases([today]),
      stored(await runPlans(), answered, true),
      () => null,
    );
    expect([...matched.rechecked.keys()]).toEqual(['refunds/kept']);
    expect(matched.not_answered).toEqual([
      {
        case: 'refunds/reworded',
        reason: 'its messages changed since run R1: the stored answers are to another prompt',
      },
      { case: 'refunds/unanswered', reason: 'run R1 has no answer to it (the run stopped before it)' },
      { case: 'refunds/added', reason: 'not in run R1 (added since)' },
    ]);
    expect(matched.dropped).toEqual(['refunds/removed']);
    // Today's plan, for the new journal: every case of today's suites, in today's order.
    expect(matched.plans[0]!.cases.map((c) => c.id)).toEqual(['kept', 'reworded', 'unanswered', 'added']);
  });

  it('a suite whose model changed since has no stored answer to check', async () => {
    const today = SUITE(CASE('kept'), 'anthropic/claude-sonnet-4.5');
    const matched = await matchStored(planCases([today]), stored(await runPlans(), answered), () => null);
    expect(matched.rechecked.size).toBe(0);
    expect(matched.not_answered[0]!.reason).toMatch(
      /its model changed since run R1 \(openai\/gpt-4o-mini → anthropic/,
    );
  });

  it("says once per case whether today's baseline answer is the one the run's equivalence judge compared with", async () => {
    const suite = SUITE(
      CASE('same', 'Q?', 'judge: { model: openai/gpt-4o-mini, equivalent_to_baseline: true }'),
    );
    const run = await planRecords(planCases([suite]), () => 'the answer then');
    // The match takes over what it is given (it lets go of what it matched): a new one each time.
    const now = (text: string) => matchStored(planCases([suite]), stored(run, ['refunds/same']), () => text);
    expect((await now('the answer then')).rechecked.get('refunds/same')?.sameBaseline).toBe(true);
    expect((await now('a new answer accepted since')).rechecked.get('refunds/same')?.sameBaseline).toBe(
      false,
    );
  });

  it("the plan records each case's judges, and a digest of the baseline answer equivalence judges compare with", async () => {
    const suite = SUITE(
      CASE('rubric', 'Q?', `judge: { model: openai/gpt-4o-mini, rubric: 'must say "x"' }`) +
        CASE('same', 'Q2?', 'judge: { model: openai/gpt-4o-mini, equivalent_to_baseline: true }') +
        CASE('plain'),
    );
    const [plan] = await planRecords(planCases([suite]), (_, id) =>
      id === 'same' ? 'the baseline answer' : null,
    );
    const [rubric, same, plain] = plan!.cases;
    expect(rubric).toMatchObject({ judges: [{ model: 'openai/gpt-4o-mini', rubric: 'must say "x"' }] });
    expect(rubric).not.toHaveProperty('judge_baseline');
    expect(same!.judge_baseline).toBe(judgeBaselineDigest('the baseline answer'));
    expect(plain).not.toHaveProperty('judges');
  });
});

/** SUITE's cases as if made from rows of a table (`table` digests its text, `template` its template). */
const FROM_TABLE = (suite: Suite, table: string, template: string): Suite => ({
  ...suite,
  tables: [{ file: 'suites/rows.csv', format: 'csv', rows: suite.cases.length, digest: table, template }],
  cases: suite.cases.map((c, i) => ({ ...c, location: { file: 'suites/rows.csv', line: i + 2, column: 1 } })),
});

describe('matchStored: cases made from table rows, matched by what they send', () => {
  const runSuite = FROM_TABLE(SUITE(CASE('a') + CASE('b') + CASE('c')), 'T1', 'P1');
  const runPlans = () => planRecords(planCases([runSuite]), () => null);
  const stored = (plans: PlanRecord[]): StoredRun => ({
    id: 'R1',
    plans: new Map(plans.map((p) => [p.suite, p])),
    answered: new Map(['refunds/a', 'refunds/b', 'refunds/c'].map((key) => [key, 1])),
    stopped: false,
  });

  it('rechecks every row when only a check changed (template and table digests both differ)', async () => {
    const run = await runPlans();
    const today = FROM_TABLE(SUITE(CASE('a', undefined, 'equals: y') + CASE('b') + CASE('c')), 'T2', 'P2');
    const matched = await matchStored(planCases([today]), stored(run), () => null);
    expect([...matched.rechecked.keys()]).toEqual(['refunds/a', 'refunds/b', 'refunds/c']);
    expect(matched.not_answered).toEqual([]);
    // Today's plan carries the run's digest of each matched row (one string, shared).
    expect(matched.plans[0]!.cases.map((c) => c.sent)).toEqual(run[0]!.cases.map((c) => c.sent));
  });

  it('leaves only a row whose prompt changed without a stored answer, wherever the rows now are', async () => {
    const today = FROM_TABLE(SUITE(CASE('new') + CASE('c') + CASE('b', 'Another?') + CASE('a')), 'T2', 'P1');
    const matched = await matchStored(planCases([today]), stored(await runPlans()), () => null);
    expect([...matched.rechecked.keys()]).toEqual(['refunds/c', 'refunds/a']);
    expect(matched.not_answered).toEqual([
      { case: 'refunds/new', reason: 'not in run R1 (added since)' },
      {
        case: 'refunds/b',
        reason: 'its table row changed since run R1: the stored answers are to another prompt',
      },
    ]);
  });

  it('without the digest (an older journal), matches a row only while its table and template are the same, and says so', async () => {
    const older = (await runPlans()).map((p) => ({ ...p, cases: p.cases.map(({ sent: _, ...c }) => c) }));
    const same = await matchStored(planCases([runSuite]), stored(older), () => null);
    expect(same.rechecked.size).toBe(3);
    const today = FROM_TABLE(SUITE(CASE('a', undefined, 'equals: y') + CASE('b') + CASE('c')), 'T1', 'P2');
    const changed = await matchStored(planCases([today]), stored(older), () => null);
    expect(changed.rechecked.size).toBe(0);
    expect(changed.not_answered[0]!.reason).toBe(
      "its table or its template changed since run R1, whose journal (an older driftcheck's) does not record what each row sent, so no row's stored answers can be matched: run the suite again to recheck its rows",
    );
  });
});

describe('a run that did not stop but left a case unchecked', () => {
  it("is not a pass (exit 1); a stopped run keeps its stop's code", () => {
    const summary = emptySummary();
    const cases = [makeEntry({ case: 'a' }), { ...makeEntry({ case: 'b' }), status: 'not_run' as const }];
    countSuite(summary, { drift: [] } as never, cases);
    expect(summary).toMatchObject({ passed: 1, not_run: 1 });
    expect(exitCodeFor(summary, null)).toBe(1);
    const passed = emptySummary();
    countSuite(passed, { drift: [] } as never, [makeEntry({ case: 'a' })]);
    expect(exitCodeFor(passed, null)).toBe(0);
  });
});

describe('recheckSample: tool calls and tool loops', () => {
  const call = (name: string, args: string) => ({
    id: `call_${name}`,
    name,
    arguments: args,
    parsed: JSON.parse(args) as unknown,
    valid: true,
  });
  const step = (calls: ReturnType<typeof call>[], finish = 'tool_calls') => ({
    model: 'openai/gpt-4o-mini',
    finish_reason: finish,
    usage: null,
    latency_ms: 10,
    attempts: 1,
    ...(calls.length ? { tool_calls: calls } : {}),
  });

  it("reads the stored answer's calls, and every step of a tool loop, as the run read them", () => {
    const single = sampleResult({
      case: 'weather',
      content: null,
      tool_calls: [call('get_weather', '{"city":"Rome"}')],
    });
    const tool: Expectation = {
      type: 'tool_call',
      value: { name: 'get_weather', arguments: { city: 'Rome' } },
    };
    expect(recheck(single, [tool], context({ asked: [] })).checks).toEqual([
      expect.objectContaining({ type: 'tool_call', pass: true }),
    ]);

    const loop = sampleResult({
      case: 'refund',
      content: 'Yes, within 30 days.',
      steps: [
        step([call('lookup_order', '{"order":"42"}')]),
        step([call('check_policy', '{"sku":"A-1"}')]),
        step([], 'stop'),
      ],
    });
    const trajectory: Expectation = {
      type: 'trajectory',
      value: { mode: 'strict', calls: [{ name: 'lookup_order' }, { name: 'check_policy' }] },
    };
    const out = recheck(loop, [trajectory, { type: 'max_steps', value: 2 }], context({ asked: [] }));
    expect(out.checks.map((c) => [c.type, c.pass])).toEqual([
      ['trajectory', true],
      ['max_steps', false],
    ]);
  });
});

describe('recheckSample: a scripted conversation', () => {
  const chat = sampleResult({
    case: 'chat',
    content: 'You are welcome.',
    turns: [
      { user: null, content: 'Yes: it is refundable.', finish_reason: 'stop' },
      { user: 'How long do I have?', content: 'You have 30 days.', finish_reason: 'stop' },
      { user: 'Thanks!', content: 'You are welcome.', finish_reason: 'stop' },
    ],
  });
  const recheckTurns = (turns: Expectation[][]) =>
    recheckSample(chat, [contains('refundable')], context({ asked: [] }), {
      request: { model: chat.requested_model, messages: [], params: {} },
      baseline: null,
      turns,
    });

  it("checks each stored reply by today's expectations of its turn, named by its turn", () => {
    const same = recheckTurns([[contains('30 days')], [contains('welcome')]]);
    expect(same.status).toBe('pass');
    expect(same.checks.map((c) => c.message.slice(0, 7))).toEqual(['turn 1:', 'turn 2:', 'turn 3:']);
    // Today's suite asks the second reply for 60 days: that turn, and only it, fails.
    const changed = recheckTurns([[contains('60 days')], [contains('welcome')]]);
    expect(changed.status).toBe('fail');
    expect(changed.checks.map((c) => [c.message.slice(0, 7), c.pass])).toEqual([
      ['turn 1:', true],
      ['turn 2:', false],
      ['turn 3:', true],
    ]);
    // A turn today's suite added was never sent: not evaluated, never a pass.
    const added = recheckTurns([[contains('30 days')], [contains('welcome')], [contains('bye')]]);
    expect(added.status).toBe('fail');
    expect(added.checks.at(-1)).toMatchObject({ pass: false, message: expect.stringMatching(/^turn 4: /) });
  });
});
