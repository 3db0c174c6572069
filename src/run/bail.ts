import { meetsExpectations } from '../core/words.js';
import type { Samples } from '../stats/index.js';
import type { RunBail } from '../stored/report/types.js';
import type { SampleResult } from '../stored/journal/records.js';

interface OpenCase {
  /** Samples the case is planned for (null: `repeat: auto`, decided when its test stops). */
  planned: number | null;
  /** This session's samples still to finish (fixed repeats). */
  todo: number;
  failed: number;
}

/**
 * `--bail N`: counts the cases that fail their checks or error, as their samples finish, and
 * says when N are reached: the run then sends nothing new (what is in flight finishes), and
 * the rest of its cases are not run. A case counts once its verdict can no longer be a pass
 * (the fold's rule, meetsExpectations): a sample errored (its case is `error`), or so many
 * failed that fewer than half of its planned samples can pass; a `repeat: auto` case, when
 * its sequential test stops short of half. A regression against the baseline is decided
 * when the suite is folded and does not count. Only this session's samples count.
 */
export class Bail {
  private readonly open = new Map<string, OpenCase>();
  private counted = 0;

  constructor(readonly limit: number) {}

  /** The plan reached a case: `todo` of its samples will be sent in this session. */
  plan(suite: string, caseId: string, planned: number | null, todo: number): void {
    if (todo > 0 || planned === null) this.open.set(`${suite}/${caseId}`, { planned, todo, failed: 0 });
  }

  /** A sample finished (journaled). */
  add(result: SampleResult): void {
    const key = `${result.suite}/${result.case}`;
    const c = this.open.get(key);
    if (!c) return;
    if (result.status === 'fail') c.failed++;
    const failing =
      result.status === 'error' ||
      (c.planned !== null && !meetsExpectations({ pass: c.planned - c.failed, total: c.planned }));
    if (failing) return this.count(key);
    if (c.planned !== null && --c.todo === 0) this.open.delete(key);
  }

  /** A `repeat: auto` case's test stopped, with these samples. */
  caseDone(suite: string, caseId: string, samples: Samples): void {
    const key = `${suite}/${caseId}`;
    if (!this.open.has(key)) return;
    if (!meetsExpectations(samples)) this.count(key);
    else this.open.delete(key);
  }

  /** Whether N failing cases were seen: nothing new is sent. */
  get reached(): boolean {
    return this.counted >= this.limit;
  }

  /** What the run records when it stopped sending, or null when it did not. */
  bailed(): RunBail | null {
    return this.reached ? { limit: this.limit, failing: this.counted } : null;
  }

  private count(key: string): void {
    this.open.delete(key);
    this.counted++;
  }
}
