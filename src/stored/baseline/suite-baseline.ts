import { closeSync, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { FileError } from '../../util/errors.js';
import type { Baseline, BaselineCase } from './types.js';
import { NONE_RECORDED, suiteRuleStored } from './recorded.js';
import { walkObject } from './scan.js';
import { baselinePath, caseOf, noBaselineOr, parseBaseline } from './store.js';
import { READ_LIMITS, readHandleBounded } from '../../util/bounded-read.js';
import { STAND_IN_HEAD, validateBaseline } from './validate.js';
import { FigureColumns } from './figure-columns.js';
import { type CaseLookup, lookupOf } from './case-lookup.js';

/**
 * What a suite's tests read of a baseline case (its answer and checks wait in the file);
 * `within_max_steps` as baselineWithin reads it (a tool loop sampled once: its one sample).
 */
export type BaselineFigures = Pick<
  BaselineCase,
  'status' | 'samples' | 'usage' | 'latency_ms' | 'error_kind'
> &
  Partial<BaselineCase>;

/** A baseline's own fields, without its cases. */
export type BaselineHead = Omit<Baseline, 'cases'>;

/**
 * A suite's baseline as a fold reads it: its head, each case's figures (what the suite-level
 * tests and findings read) and each case whole on demand. Read from a file, the cases stay
 * as the file's bytes — one buffer outside the JS heap — and a case is parsed when it is
 * compared, so a baseline of 100,000 cases is never one object graph.
 */
export class SuiteBaseline {
  private constructor(
    readonly head: BaselineHead,
    /** Each case's figures by id (own keys: a case id is user text). */
    readonly figures: CaseLookup<BaselineFigures>,
    private readonly whole: (id: string) => BaselineCase | null,
    /** What the suite-wide rules read of a case (suiteRuleStored), without making its figures. */
    readonly recorded: (id: string) => Readonly<Record<string, unknown>>,
  ) {}

  /** A baseline already in memory (a diff's run, a library caller's). */
  static of(baseline: Baseline): SuiteBaseline {
    const { cases, ...head } = baseline;
    const whole = (id: string) => caseOf(baseline, id);
    return new SuiteBaseline(head, lookupOf<BaselineFigures>({ cases }), whole, (id) => {
      const c = whole(id);
      return c ? suiteRuleStored(c) : NONE_RECORDED;
    });
  }

  /** A case's whole entry, or null. */
  case(id: string): BaselineCase | null {
    return this.figures.has(id) ? this.whole(id) : null;
  }

  /** The whole baseline, every case parsed (for a caller that asks for it as one object). */
  toBaseline(): Baseline {
    const cases = new Map<string, BaselineCase>();
    for (const id of this.figures.ids()) cases.set(id, this.case(id)!);
    return { ...this.head, cases: Object.fromEntries(cases) };
  }

  /**
   * Reads `dir/<suite>.json` case by case: the file is walked a window at a time (never
   * held whole: a 100,000-case baseline is 75 MB), each batch of cases parsed and checked
   * against the baseline's shape once, their figures kept as columns with their places in
   * the file, and a case is read again from the file when it is compared (CaseBytes). A
   * file it cannot walk so (not JSON, not the layout driftcheck writes) is read whole, with
   * readBaseline's checks and words for what is wrong.
   */
  static read(
    dir: string,
    suite: string,
    /** Files from this size on are read case by case (tests lower it). */
    wholeBelow: number = WHOLE_BELOW,
  ): Promise<SuiteBaseline | null> {
    return SuiteBaseline.load(dir, suite, wholeBelow, true).then((read) => read?.baseline ?? null);
  }

  /**
   * Checks `dir/<suite>.json` as `read` does, with its errors, keeping none of its cases'
   * figures (a run's pre-flight, before anything is sent): its head, or null when there is none.
   */
  static async check(dir: string, suite: string): Promise<BaselineHead | null> {
    return (await SuiteBaseline.load(dir, suite, WHOLE_BELOW, false))?.head ?? null;
  }

  private static async load(
    dir: string,
    suite: string,
    wholeBelow: number,
    keep: boolean,
  ): Promise<{ head: BaselineHead; baseline: SuiteBaseline | null } | null> {
    const file = baselinePath(dir, suite);
    // Opened once: its stat, the walk and a whole read all go through this handle. Only
    // the file system's errors are worded as "cannot read" (noBaselineOr): a bug, or a
    // baseline's own error (parseBaseline's), passes as it is.
    let handle: FileHandle | null = null;
    try {
      handle = await open(file, 'r');
      const identity = await handle.stat();
      // A small baseline is read whole, as it always was: held for one suite it costs little,
      // and whole is faster than case by case. So is one that is not a plain file, or one
      // past the limit (the whole read says so).
      const walks =
        identity.isFile() && identity.size >= wholeBelow && identity.size <= READ_LIMITS.baseline.bytes;
      const columns = walks && keep ? new FigureColumns() : null;
      const head = walks ? await SuiteBaseline.walk(file, suite, handle, identity, columns) : null;
      if (!head) {
        // Not walked, or bytes the walk does not take: read whole from the start (a pipe on
        // from where it is), with readBaseline's checks and words for what is wrong.
        const at = identity.isFile() ? 0 : null;
        const bytes = await readHandleBounded(handle, identity, file, READ_LIMITS.baseline, at);
        const baseline = parseBaseline(file, suite, bytes.toString('utf8'));
        const { cases: _cases, ...whole } = baseline;
        return { head: whole, baseline: keep ? SuiteBaseline.of(baseline) : null };
      }
      if (!columns) return { head, baseline: null };
      // Its cases are read again from the file that was walked: CaseBytes checks it is
      // still that one at every read.
      const again = new CaseBytes(file, identity);
      const baseline = new SuiteBaseline(
        head,
        columns,
        (id) => {
          const at = columns.place(id);
          return at ? (JSON.parse(again.text(at.start, at.end)) as BaselineCase) : null;
        },
        (id) => columns.recordedOf(id),
      );
      return { head, baseline };
    } catch (error) {
      return noBaselineOr(file, error);
    } finally {
      await handle?.close();
    }
  }

  /**
   * A large baseline walked case by case, its figures kept in `columns` (null: checked,
   * not kept): its head, or null when its bytes are not a layout it walks.
   */
  private static async walk(
    file: string,
    suite: string,
    handle: FileHandle,
    identity: Stats,
    columns: FigureColumns | null,
  ): Promise<BaselineHead | null> {
    const head: Record<string, unknown> = {};
    let cased = false;
    // Anything amiss is left to the whole read, which words it as readBaseline does.
    for await (const walked of walkObject(handle, identity.size, 'cases', BATCH)) {
      if (walked.kind === 'unwalkable') return null;
      if (walked.kind === 'member') {
        // Cases that are not an object.
        if (walked.key === 'cases') return null;
        try {
          head[walked.key] = JSON.parse(walked.text);
        } catch {
          return null;
        }
        continue;
      }
      // One JSON.parse and one shape check per batch cost what the whole file's did, and only
      // a batch is ever an object graph. The head may follow the cases (a hand-edited file):
      // a batch is checked with a stand-in, the head once it is all read.
      let cases: Record<string, unknown>;
      try {
        cases = JSON.parse(walked.text) as Record<string, unknown>;
      } catch {
        return null;
      }
      if ('error' in validateBaseline({ ...STAND_IN_HEAD, cases })) return null;
      const firstBatch = !cased;
      cased = true;
      if (!columns) continue;
      for (const m of walked.members) columns.add(m.key, cases[m.key] as BaselineCase, m);
      if (firstBatch) {
        // The first batch says about how many cases the file holds, and latency values:
        // room for them, and 5 % more.
        const { members } = walked;
        const share = (1.05 * identity.size) / (members[members.length - 1]!.end - members[0]!.keyStart);
        columns.reserve(members.length * share, columns.pooledValues * share);
      }
    }
    const checked = validateBaseline({ ...head, cases: {} });
    if (!cased || 'error' in checked || checked.value.suite !== suite) return null;
    const { cases: _none, ...baselineHead } = checked.value;
    // What was walked must be one file, not one written over while it was read.
    if (!sameFile(await handle.stat(), identity)) throw changedWhileRead(file);
    return baselineHead;
  }
}

/** What a case read again from its baseline file takes at once: the cases after it come with it. */
const WINDOW_BYTES = 1 << 16;

/**
 * A large baseline's cases read again from its file by their places, a window at a time,
 * so that the file's bytes are not held while its suite is folded (a 100,000-case baseline
 * is 75 MB). Synchronous, because a suite's entries are finished synchronously
 * (suiteVerdicts.entry); the fold asks for cases in about the file's order, so a 64 KB
 * window serves a few dozen of them and a 75 MB file takes about 1,200 reads. The file is
 * opened for each window (no descriptor outlives a read) and must still be the one read:
 * a baseline replaced meanwhile (`baseline accept` in another shell) is an error naming
 * it, never another file's bytes taken for a case.
 */
class CaseBytes {
  private buffer = Buffer.alloc(0);
  private window = this.buffer;
  private start = 0;

  constructor(
    private readonly file: string,
    private readonly identity: Stats,
  ) {}

  text(start: number, end: number): string {
    if (start < this.start || end > this.start + this.window.length) this.load(start, end - start);
    return this.window.toString('utf8', start - this.start, end - this.start);
  }

  private load(start: number, length: number): void {
    const want = Math.max(length, WINDOW_BYTES);
    if (this.buffer.length < want) this.buffer = Buffer.allocUnsafe(want);
    const fd = openSync(this.file, 'r');
    try {
      if (!sameFile(fstatSync(fd), this.identity)) throw changedWhileRead(this.file);
      const read = readSync(fd, this.buffer, 0, Math.min(want, this.identity.size - start), start);
      this.window = this.buffer.subarray(0, read);
      this.start = start;
    } finally {
      closeSync(fd);
    }
    if (this.window.length < length) throw changedWhileRead(this.file);
  }
}

/** The same file, unchanged: its identity, size and time of last change. */
function sameFile(now: Stats, then: Stats): boolean {
  return (
    now.ino === then.ino && now.dev === then.dev && now.size === then.size && now.mtimeMs === then.mtimeMs
  );
}

function changedWhileRead(file: string): FileError {
  return new FileError(
    file,
    'the baseline changed while driftcheck was reading it; run again once nothing else writes it',
  );
}

/** Baselines smaller than this (about 10,000 short cases) are read whole. */
const WHOLE_BELOW = 4 * 2 ** 20;

/** A baseline's head, for checking its cases' shape before its own head is read. */

/** Cases parsed and checked together. */
const BATCH = 1_000;
