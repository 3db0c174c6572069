import type { PlannedCaseGroup } from '../plan.js';
import type { MatchedCase } from './match.js';

/**
 * Today's planned cases, found for the stored samples as they come: read again in plan order
 * (a table's rows made again, as the fold makes their prompts), never held whole. A run's
 * journal holds its samples in about plan order, so the cases read past on the way to a
 * sample's own are held until the last of their stored samples has come (the journal's first
 * read counted them: samples sent again on resume, a `repeat: auto` case's), and let go
 * then: in whatever order the samples come, today's plan is read once. Only a sample the
 * first read did not count (a run still writing its journal) can find its case let go: it
 * is found by a second read from the start, which goes on from there for the next.
 */
export class TodaysCases {
  /** Cases read past whose stored samples are not all in yet, by `suite/case`. */
  private readonly held = new Map<string, { group: PlannedCaseGroup; left: number }>();
  private readonly ahead: Reader;
  private behind: Reader | null = null;

  constructor(
    /** Today's plan from its start, made again each time it is called. */
    private readonly plan: () => AsyncIterable<PlannedCaseGroup>,
    /** The cases whose samples are checked again (the others are not held). */
    private readonly wanted: ReadonlyMap<string, MatchedCase>,
    private readonly keyOf: (group: PlannedCaseGroup) => string,
  ) {
    this.ahead = new Reader(plan());
  }

  /** The planned case of one stored sample (`key` its case's, `matched` how it matched); counts the sample. */
  async take(key: string, matched: MatchedCase): Promise<PlannedCaseGroup> {
    const held = this.held.get(key);
    if (held) {
      if (--held.left <= 0) this.held.delete(key);
      return held.group;
    }
    if (matched.ordinal > this.ahead.at) {
      const group = await this.ahead.seek(matched.ordinal, (passed) => {
        const key = this.keyOf(passed);
        const wanted = this.wanted.get(key);
        if (wanted) this.held.set(key, { group: passed, left: wanted.samples });
      });
      if (matched.samples > 1) this.held.set(key, { group, left: matched.samples - 1 });
      return group;
    }
    if (!this.behind || matched.ordinal <= this.behind.at) {
      await this.behind?.close();
      this.behind = new Reader(this.plan());
    }
    return this.behind.seek(matched.ordinal, () => {});
  }

  /** Lets go of the reads (their tables' files). */
  async close(): Promise<void> {
    await this.ahead.close();
    await this.behind?.close();
    this.held.clear();
  }
}

/** One read of today's plan, forward only. */
class Reader {
  /** The ordinal of the last case read (-1: none yet). */
  at = -1;
  private readonly cases: AsyncIterator<PlannedCaseGroup>;

  constructor(plan: AsyncIterable<PlannedCaseGroup>) {
    this.cases = plan[Symbol.asyncIterator]();
  }

  /** Reads on to the case of `ordinal`, handing each one before it to `passed`. */
  async seek(ordinal: number, passed: (group: PlannedCaseGroup) => void): Promise<PlannedCaseGroup> {
    for (let next = await this.cases.next(); !next.done; next = await this.cases.next()) {
      this.at = next.value.ordinal;
      if (next.value.ordinal === ordinal) return next.value;
      passed(next.value);
    }
    this.at = Infinity;
    // Every matched case is in today's plan, which is read the same each time.
    throw new Error(`internal: case ${ordinal} of today's plan not found when read again`);
  }

  async close(): Promise<void> {
    await this.cases.return?.(undefined);
  }
}
