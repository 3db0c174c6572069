import { canonicalJson } from '../../util/json-compare.js';
import type { JudgeSpec } from '../../checks/judge.js';
import type { PlanCase, PlanRecord } from '../../stored/journal/records.js';
import { sentDigest } from '../plan-records.js';
import type { RecheckInfo } from '../../stored/report/types.js';
import type { Message } from '../../core/messages.js';

/** What a recheck reads of the stored run before its samples: its plan, and which cases it answered. */
export interface StoredRun {
  id: string;
  /** Its plan records by suite: each is let go (deleted) once today's cases of its suite are matched. */
  plans: Map<string, PlanRecord>;
  /**
   * `suite/case` of every case with at least one stored answer, in the order of their first,
   * with how many samples of it the journal holds (not run ones too): taken over by the
   * match, which deletes each of today's cases from it (what is left are the dropped ones).
   */
  answered: Map<string, number>;
  /** Whether the run stopped before its plan's end (paused, interrupted, killed). */
  stopped: boolean;
}

/** A case of today's suites checked again: what its stored samples need of the run's plan of it. */
export interface MatchedCase {
  /** The judges the run asked of it, in order (null: its journal does not say). */
  asked: readonly JudgeSpec[] | null;
  /** Today's baseline answer is the one the run's equivalence judges compared with (by digest). */
  sameBaseline: boolean;
  /** Its ordinal in today's plan (where a plan read again finds it). */
  ordinal: number;
  /** Its samples in the stored journal: today's case is held until the last of them has come. */
  samples: number;
}

/**
 * Matches today's plan with the stored run by suite and case id, one case at a time as
 * today's plan records are made (in plan order), holding per case only what its stored
 * samples need. A case is checked again only when the stored answer is an answer to it:
 * asked with the same messages of the same model (a table row's, by the digest of what it
 * sent); otherwise it has no stored answer (not run, with why). So a changed check
 * re-scores every case and a changed row voids only its own answers. Stored answers of
 * cases no longer in today's suites are dropped, and listed.
 */
export class StoredMatch {
  /** By `suite/case`. */
  readonly rechecked = new Map<string, MatchedCase>();
  readonly not_answered: RecheckInfo['not_answered'] = [];
  /** The suite being matched, and its stored plan's cases by id. */
  private current: { suite: string; run: PlanRecord | undefined; asked: Map<string, PlanCase> } | null = null;

  constructor(private readonly stored: StoredRun) {}

  /**
   * One case of today's plan record `plan` (made without `sent`), with what it sends: a
   * rechecked case takes the run's repeat (its stored samples are folded as the run planned
   * them) and, a table row's, the run's digest of what it sent (one string, shared).
   */
  add(plan: PlanRecord, c: PlanCase, messages: readonly Message[]): void {
    const { run, asked } = this.suiteOf(plan.suite);
    const key = caseKey(plan.suite, c.id);
    const samples = this.stored.answered.get(key);
    this.stored.answered.delete(key);
    const was = asked.get(c.id);
    const why = unanswered(this.stored, samples !== undefined, run, was, plan, c, messages);
    if (why !== null) {
      this.not_answered.push({ case: key, reason: why });
      return;
    }
    c.repeat = was!.repeat;
    if (c.row && was!.sent !== undefined) c.sent = was!.sent;
    this.rechecked.set(key, {
      asked: was!.judges ?? null,
      // Today's plan record holds today's digest: compared once a case, not once a sample.
      sameBaseline: was!.judge_baseline !== undefined && was!.judge_baseline === c.judge_baseline,
      ordinal: c.ordinal,
      samples: samples!,
    });
  }

  /** Stored answers of cases not in today's suites, in the order the run answered them: once every case is in. */
  dropped(): string[] {
    if (this.current) this.stored.plans.delete(this.current.suite);
    this.current = null;
    return [...this.stored.answered.keys()];
  }

  /** The stored plan of a suite; the one before it, matched, is let go. */
  private suiteOf(suite: string): NonNullable<StoredMatch['current']> {
    if (this.current?.suite === suite) return this.current;
    if (this.current) this.stored.plans.delete(this.current.suite);
    const run = this.stored.plans.get(suite);
    this.current = { suite, run, asked: new Map(run?.cases.map((c) => [c.id, c])) };
    return this.current;
  }
}

/** Why a case of today's plan has no stored answer to check, or null when it has one. */
function unanswered(
  stored: StoredRun,
  answered: boolean,
  run: PlanRecord | undefined,
  asked: PlanCase | undefined,
  plan: PlanRecord,
  today: PlanCase,
  messages: readonly Message[],
): string | null {
  const id = `run ${stored.id}`;
  if (!run || !asked) return `not in ${id} (added since)`;
  if (!answered) return `${id} has no answer to it${stored.stopped ? ' (the run stopped before it)' : ''}`;
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
