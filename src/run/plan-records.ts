import { createHash } from 'node:crypto';
import { canonicalJson } from '../util/json-compare.js';
import { judgeBaselineDigest, splitExpectations } from '../checks/judge.js';
import { journalPlan, type PlanCase, type PlanRecord } from '../stored/journal/records.js';
import type { Suite } from '../suite/types.js';
import type { Message } from '../core/messages.js';
import type { Diagnostic } from '../util/errors.js';
import type { PlannedCaseGroup } from './plan.js';

/** A case's baseline answer, for the judges that compare with it (null: none). */
export type BaselineContent = (suite: string, caseId: string) => string | null;

/** How the cases of a plan record are made. */
export interface PlanCaseOptions {
  /** false: without the digests of what table rows send (a recheck sets those it matched: see StoredMatch). */
  sent?: boolean;
  /** Called with each case as it is made, before it joins its record (`record`): a recheck amends it. */
  each?: (group: PlannedCaseGroup, made: PlanCase, record: PlanRecord) => void;
}

/**
 * Cases of a suite's plan record made, journaled and folded at a time (planLine). A part's
 * cases are held together while it is made: at 1,000, a 100,000-row JSONL run with
 * baselines peaked at 223–232 MB (six runs), at 250 at 207–211 MB (three; 100: 208–210),
 * and in `npm run bench` 217 → 203 MB (medians of three); first runs and wall times
 * unchanged. It is what V8 does with a burst of objects that outlive young collections
 * (allocation-site pretenuring: `--no-allocation-site-pretenuring` gave 209–211 MB at 1,000).
 */
const PLAN_PART = 250;

/**
 * One suite's plan record (its cases, what a report shows of them, their drift rules and
 * judges), made from its planned cases as they come (a table's rows) a part at a time
 * (PLAN_PART cases): each part, a whole record (its head and its part of the cases), is
 * handed to `onPart` as it is made (the fold takes it), and the record's journal line is
 * gathered as bytes outside the heap, for the caller to write once whole. Made whole, a
 * 100,000-case record (15 MB of objects, and its 5 MB line) was alive when a full
 * collection came, and the old generation was let grow to four times that before the
 * next: 258 MB at the peak. Null when no case is planned. A run writes each suite's this
 * way when it reaches the suite, a recheck today's (`sent: false`, `each`: see StoredMatch).
 */
export async function planLine(
  cases: Iterable<PlannedCaseGroup> | AsyncIterable<PlannedCaseGroup>,
  baselineContent: BaselineContent,
  onPart: (part: PlanRecord) => void,
  options: PlanCaseOptions = {},
): Promise<Buffer[] | null> {
  const line: Buffer[] = [];
  for await (const part of planRecordParts(cases, baselineContent, PLAN_PART, options)) {
    line.push(Buffer.from(planLinePart(journalPlan(part), line.length === 0)));
    onPart(part);
  }
  if (line.length === 0) return null;
  line.push(Buffer.from(']}'));
  return line;
}

/**
 * One suite's plan record in parts of at most `size` cases, each a whole record (its head
 * and its part of the cases), from its planned cases as they come.
 */
async function* planRecordParts(
  cases: Iterable<PlannedCaseGroup> | AsyncIterable<PlannedCaseGroup>,
  baselineContent: BaselineContent,
  size: number,
  options: PlanCaseOptions,
): AsyncGenerator<PlanRecord> {
  let part: PlanRecord | null = null;
  for await (const c of cases) {
    part ??= planHead(c);
    const made = planCase(c, baselineContent, options.sent ?? true);
    options.each?.(c, made, part);
    part.cases.push(made);
    if (part.cases.length < size) continue;
    yield part;
    part = null;
  }
  if (part) yield part;
}

/**
 * A plan record's journal line, a part at a time: the first part gives the head and its
 * cases, each later part its cases; the caller closes the line with `]}`. Joined, the line
 * is one record holding every part's cases (`cases` last).
 */
export function planLinePart(part: PlanRecord, first: boolean): string {
  const cases = part.cases.map((c) => JSON.stringify(c)).join(',');
  if (!first) return part.cases.length > 0 ? `,${cases}` : '';
  const { cases: _, ...head } = part;
  return `${JSON.stringify(head).slice(0, -1)},"cases":[${cases}`;
}

function planHead(c: PlannedCaseGroup): PlanRecord {
  return {
    type: 'plan',
    suite: c.suite.suite,
    file: c.suite.file,
    service: c.service,
    requested_model: c.model,
    ...(c.suite.system !== undefined ? { system: c.suite.system } : {}),
    ...(c.suite.drift ? { drift: c.suite.drift } : {}),
    ...(c.suite.tables ? { tables: c.suite.tables } : {}),
    cases: [],
  };
}

/**
 * A case as its plan record holds it. A case made from a table row holds where the row is
 * (the table's index in the suite, the row's line), not its messages: the table, whose
 * digest the record keeps, makes them again for a report (journalMessages); and, with
 * `sent`, the digest of its messages, which a recheck matches its stored answers by.
 */
function planCase(c: PlannedCaseGroup, baselineContent: BaselineContent, sent: boolean): PlanCase {
  const table = c.suite.tables?.findIndex((t) => t.file === c.case.location.file) ?? -1;
  return {
    id: c.case.id,
    ordinal: c.ordinal,
    repeat: c.adaptive ? 'auto' : c.repeats,
    ...(table >= 0
      ? { row: [table, c.case.location.line], ...(sent ? { sent: sentDigest(c.case.messages) } : {}) }
      : { messages: c.case.messages }),
    ...(c.case.drift ? { drift: c.case.drift } : {}),
    ...judgesOf(c, baselineContent),
  };
}

/**
 * What a case sends, as a digest: the first 72 bits of the sha256 of its messages (system
 * prompt included) as canonical JSON, in 12 base64url characters. A case made from a table
 * row keeps it in its plan record in place of its messages (journal 6): the stored answers
 * of a row are to today's case exactly when today's case sends messages of the same digest,
 * whatever else of its table or template changed. Twelve characters, not 64 hex: a reader
 * holds one per row of a 100,000-row plan, and V8 copies a parsed string this short instead
 * of keeping it as a view into the plan's whole line (see ownStrings), which a 64-character
 * one kept alive (about 60 MB more at the peak of a recheck of 100,000 rows).
 */
export function sentDigest(messages: readonly Message[]): string {
  return createHash('sha256').update(canonicalJson(messages)).digest().subarray(0, 9).toString('base64url');
}

/**
 * The case's judges as asked, and what its equivalence judges compare with: what lets a
 * recheck keep a stored verdict only when the same judge would be asked the same today.
 */
function judgesOf(
  c: PlannedCaseGroup,
  baselineContent: BaselineContent,
): Pick<PlanCase, 'judges' | 'judge_baseline'> {
  const { judges } = splitExpectations(c.case.expect);
  if (judges.length === 0) return {};
  if (!judges.some((j) => j.equivalent_to_baseline)) return { judges };
  return { judges, judge_baseline: judgeBaselineDigest(baselineContent(c.suite.suite, c.case.id)) };
}

/**
 * The tables a resumed run would read differently from when its journal planned them: a
 * journaled table whose file now has another digest, or is gone from its suite. Its rows
 * would make other cases (or the same ids with other prompts) than the results already
 * journaled, so the resume is refused, each table named where it is. Plans without
 * `tables` (journals before version 4, suites without tables) check nothing.
 */
export function changedTables(plans: readonly PlanRecord[], suites: readonly Suite[]): Diagnostic[] {
  const now = new Map(suites.map((s) => [s.suite, s.tables ?? []]));
  const out: Diagnostic[] = [];
  for (const plan of plans) {
    const current = now.get(plan.suite);
    // A suite the resume does not plan any more is the selection's business, not a table's.
    if (!current) continue;
    for (const [i, then] of (plan.tables ?? []).entries()) {
      const table = current[i];
      if (table && table.file === then.file && table.digest === then.digest) continue;
      out.push({
        file: then.file,
        line: 1,
        column: 1,
        whole_file: true,
        message: table
          ? `table of suite ${plan.suite} changed since the run started (${then.rows} rows then, ${table.rows} now)`
          : `table of suite ${plan.suite} is no longer read by it (the suite's tables changed since the run started)`,
        hint: 'the results already journaled are kept; restore the table to resume, or start a new run without --resume',
      });
    }
  }
  return out;
}
