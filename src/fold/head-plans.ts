import { FileError } from '../util/errors.js';
import { journalPlanLines, readPlanAt } from '../stored/journal/read.js';
import type { PlanRecord, RunRecord } from '../stored/journal/records.js';

/** One plan record of one journal: which journal, and where its line is. */
interface PlanRef {
  journal: number;
  offset: number;
  length: number;
}

interface SuiteRefs {
  suite: string;
  /** Its smallest ordinal over every journal: its place in the plan. */
  first: number;
  /** Its plan records, in the order the journals were given and then file order. */
  refs: PlanRef[];
  /** Distinct cases over all its records: what the fold will hold of its plan. */
  cases: number;
}

/**
 * The plan records of the journals folded side by side, handed over a suite at
 * a time: a suite's records (from every journal that planned it) when the read first reaches
 * one of its samples, with every suite before it in plan order. A plan record holds every
 * case's messages, so a merge that took all heads first held the whole run's prompts while
 * it folded the first suite. What is kept from the start is a reference per record and a
 * count per suite; each record is read again from its line when its suite is reached.
 */
export class HeadPlans {
  private next = 0;
  private unread: number;
  /** Every suite some head plans, and those of them not handed over yet. */
  private readonly known: Set<string>;
  private readonly pending: Set<string>;

  private constructor(
    private readonly files: readonly string[],
    /** Suites in the order the fold holds them: by smallest ordinal, ties in the order first seen. */
    private readonly order: readonly SuiteRefs[],
  ) {
    this.unread = order.reduce((n, s) => n + s.cases, 0);
    this.known = new Set(order.map((s) => s.suite));
    this.pending = new Set(this.known);
  }

  /**
   * Scans each journal once for its run and plan records (run records go to `onRun`), noting where each plan
   * record is and how many distinct cases each suite has, but keeping no record.
   */
  static async index(
    files: readonly string[],
    onRun: (journal: number, run: RunRecord) => void,
  ): Promise<HeadPlans> {
    const suites = new Map<string, SuiteRefs>();
    // Case ids per suite for this pass only: the same case in two journals is planned once.
    const ids = new Map<string, Set<string>>();
    for (const [journal, file] of files.entries()) {
      // Every plan record, wherever it is: a run writes a suite's when it reaches the suite.
      for await (const { record, offset, length } of journalPlanLines(file)) {
        if (record.type === 'run') onRun(journal, record);
        else {
          let suite = suites.get(record.suite);
          if (!suite)
            suites.set(record.suite, (suite = { suite: record.suite, first: Infinity, refs: [], cases: 0 }));
          suite.refs.push({ journal, offset, length });
          let seen = ids.get(record.suite);
          if (!seen) ids.set(record.suite, (seen = new Set()));
          for (const c of record.cases) {
            seen.add(c.id);
            suite.first = Math.min(suite.first, c.ordinal);
          }
          suite.cases = seen.size;
        }
      }
    }
    // The order the fold sorted every suite into when it held all plans (a stable sort).
    const order = [...suites.values()].sort((a, b) => a.first - b.first);
    return new HeadPlans(files, order);
  }

  /** Distinct cases of the plans not handed over yet: with the fold's own, the whole plan. */
  planned(): number {
    return this.unread;
  }

  /**
   * Whether a record of this suite must wait for plans: its own are not handed over yet, or
   * it is in no head (an unplanned sample) while some plan still is — the fold put such a
   * suite after every planned one.
   */
  waits(suite: string): boolean {
    return this.next < this.order.length && (this.pending.has(suite) || !this.known.has(suite));
  }

  /**
   * Hands `add` the plan records of every suite up to `suite` in plan order (all of them for
   * a suite in no head, or null), each suite's records in the order the journals were given.
   */
  async through(suite: string | null, add: (journal: number, plan: PlanRecord) => void): Promise<void> {
    const all = suite === null || !this.known.has(suite);
    while (this.next < this.order.length) {
      const s = this.order[this.next]!;
      const records: [number, PlanRecord][] = [];
      for (const ref of s.refs) records.push([ref.journal, await this.read(ref)]);
      // Handed over in one step with the count: a suite folded while the records were read
      // is told the size of the whole plan, neither side counting this suite twice.
      for (const [journal, record] of records) add(journal, record);
      this.next++;
      this.pending.delete(s.suite);
      this.unread -= s.cases;
      if (!all && s.suite === suite) break;
    }
  }

  private async read({ journal, offset, length }: PlanRef): Promise<PlanRecord> {
    const file = this.files[journal]!;
    const plan = await readPlanAt(file, offset, length);
    // It was found a moment ago: a plan record gone now means the file was replaced.
    if (!plan) throw new FileError(file, 'the journal changed while it was read; fold it again');
    return plan;
  }
}
