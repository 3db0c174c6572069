import { canonicalJson } from '../../util/json-compare.js';
import type { CheckRequest, Expectation } from '../../checks/registry.js';
import type { PlanCase, PlanRecord } from '../../stored/journal/records.js';
import { type PlannedCaseGroup, plannedRequest } from '../plan.js';
import { type BaselineContent, planRecords, sentDigest } from '../plan-records.js';
import type { RecheckInfo } from '../../stored/report/types.js';
import type { Message } from '../../core/messages.js';

/** What a recheck reads of the stored run before its samples: its plan, and which cases it answered. */
export interface StoredRun {
  id: string;
  /** Its plan records by suite. */
  plans: ReadonlyMap<string, PlanRecord>;
  /** `suite/case` of every case with at least one stored sample. */
  answered: ReadonlySet<string>;
  /** Whether the run stopped before its plan's end (paused, interrupted, killed). */
  stopped: boolean;
}

/** A case of today's suites checked again: today's expectations, and the run's plan of it. */
interface RecheckedCase {
  expect: readonly Expectation[];
  /** A scripted conversation's later turns' expectations, in order (absent: one reply). */
  turns?: readonly (readonly Expectation[])[];
  /** What today's case would send: what its checks see as the request. */
  request: CheckRequest;
  asked: PlanCase;
  /** Today's baseline answer is the one the run's equivalence judges compared with (by digest). */
  sameBaseline: boolean;
}

export interface RecheckPlan {
  /** Today's plan records, for the recheck's journal: a rechecked case keeps the run's repeat. */
  plans: PlanRecord[];
  /** By `suite/case`. */
  rechecked: ReadonlyMap<string, RecheckedCase>;
  not_answered: RecheckInfo['not_answered'];
  dropped: string[];
}

/**
 * Matches today's plan with the stored run by suite and case id. A case is checked again
 * only when the stored answer is an answer to it: asked with the same messages of the same
 * model (a table row's, by the digest of what it sent); otherwise it has no stored answer
 * (not run, with why). So a changed check re-scores every case and a changed row voids only
 * its own answers. Stored answers of cases no longer in today's suites are dropped, and
 * listed. Pure.
 */
export function matchStored(
  today: readonly PlannedCaseGroup[],
  stored: StoredRun,
  baselineContent: BaselineContent,
): RecheckPlan {
  const rechecked = new Map<string, RecheckedCase>();
  const notAnswered: RecheckInfo['not_answered'] = [];
  const byCase = new Map(today.map((g) => [caseKey(g.suite.suite, g.case.id), g]));
  // Today's row digests are made one at a time below, not held for every case at once.
  const plans = planRecords(today, baselineContent, { sent: false });
  for (const plan of plans) {
    const run = stored.plans.get(plan.suite);
    const asked = new Map(run?.cases.map((c) => [c.id, c]));
    for (const c of plan.cases) {
      const key = caseKey(plan.suite, c.id);
      const why = unanswered(stored, run, asked.get(c.id), plan, c, key, byCase.get(key)!.case.messages);
      if (why !== null) {
        notAnswered.push({ case: key, reason: why });
        continue;
      }
      const was = asked.get(c.id)!;
      // The stored samples are folded as the run planned them (a repeat, or sampled adaptively).
      c.repeat = was.repeat;
      // Matched, today's row sends what the run's did: its digest is the run's (one string, shared).
      if (c.row && was.sent !== undefined) c.sent = was.sent;
      const group = byCase.get(key)!;
      rechecked.set(key, {
        expect: group.case.expect,
        ...(group.case.turns ? { turns: group.case.turns.map((t) => t.expect) } : {}),
        request: plannedRequest(group),
        asked: was,
        // Today's plan record holds today's digest: compared once a case, not once a sample.
        sameBaseline: was.judge_baseline !== undefined && was.judge_baseline === c.judge_baseline,
      });
    }
  }
  const dropped = [...stored.answered].filter((key) => !byCase.has(key));
  return { plans, rechecked, not_answered: notAnswered, dropped };
}

/** Why a case of today's plan has no stored answer to check, or null when it has one. */
function unanswered(
  stored: StoredRun,
  run: PlanRecord | undefined,
  asked: PlanCase | undefined,
  plan: PlanRecord,
  today: PlanCase,
  key: string,
  messages: Message[],
): string | null {
  const id = `run ${stored.id}`;
  if (!run || !asked) return `not in ${id} (added since)`;
  if (!stored.answered.has(key))
    return `${id} has no answer to it${stored.stopped ? ' (the run stopped before it)' : ''}`;
  if (run.requested_model !== plan.requested_model)
    return `its model changed since ${id} (${run.requested_model} → ${plan.requested_model}): the stored answers are another model's`;
  // A case run from a table row holds the digest of what it sent (journal 6), not its messages.
  if (asked.row && !asked.messages) {
    if (asked.sent !== undefined)
      return asked.sent === sentDigest(messages)
        ? null
        : `its table row changed since ${id}: the stored answers are to another prompt`;
    return olderRow(run, asked, plan, today, id);
  }
  if (canonicalJson(asked.messages) !== canonicalJson(messages))
    return `its messages changed since ${id}: the stored answers are to another prompt`;
  return null;
}

/**
 * A row case of a journal that records no digest of what each row sent (journal 5): its
 * answers are taken only for the same row of the same table (digest), made by the same
 * template, and otherwise it has no stored answer, saying why it cannot tell more.
 */
function olderRow(
  run: PlanRecord,
  asked: PlanCase,
  plan: PlanRecord,
  today: PlanCase,
  id: string,
): string | null {
  const then = run.tables?.[asked.row![0]];
  const now = today.row ? plan.tables?.[today.row[0]] : undefined;
  const same =
    then !== undefined &&
    now !== undefined &&
    then.digest === now.digest &&
    then.template === now.template &&
    asked.row![1] === today.row?.[1];
  return same
    ? null
    : `its table or its template changed since ${id}, whose journal (an older driftcheck's) does not record what each row sent, so no row's stored answers can be matched: run the suite again to recheck its rows`;
}

/** How a recheck names a case: `suite/case` (ids hold no `/`). */
export function caseKey(suite: string, caseId: string): string {
  return `${suite}/${caseId}`;
}
