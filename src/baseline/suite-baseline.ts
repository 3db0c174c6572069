import { closeSync, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { FileError } from '../errors.js';
import type { Baseline, BaselineCase } from '../types.js';
import { suiteRuleStored } from '../record/baseline.js';
import { objectMembers, skipSpace } from './scan.js';
import { BASELINE_REMEDY, caseOf, parseBaseline, readBaselineBytes } from './store.js';
import { validateBaseline } from './validate.js';
import { FigureColumns } from './figure-columns.js';
import { type CaseLookup, lookupOf } from './case-lookup.js';

/** What a suite's tests read of a baseline case (its answer and checks wait in the file). */
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
  ) {}

  /** A baseline already in memory (a diff's run, a library caller's). */
  static of(baseline: Baseline): SuiteBaseline {
    const { cases, ...head } = baseline;
    return new SuiteBaseline(head, lookupOf<BaselineFigures>({ cases }), (id) => caseOf(baseline, id));
  }

  /** A case's whole entry, or null. */
  case(id: string): BaselineCase | null {
    return this.figures.has(id) ? this.whole(id) : null;
  }

  /** Case ids in the file's order. */
  ids(): string[] {
    return [...this.figures.ids()];
  }

  /** The whole baseline, every case parsed (for a caller that asks for it as one object). */
  toBaseline(): Baseline {
    const cases = new Map<string, BaselineCase>();
    for (const id of this.ids()) cases.set(id, this.case(id)!);
    return { ...this.head, cases: Object.fromEntries(cases) };
  }

  /**
   * Reads `dir/<suite>.json` case by case: each case is parsed and checked against the
   * baseline's shape once, its figures kept as columns and its place in the file; the
   * file's bytes are then let go, and a case is read again from the file when it is
   * compared (CaseBytes). The same errors as readBaseline (which reads a file this cannot
   * walk, and words what is wrong).
   */
  static async read(
    dir: string,
    suite: string,
    /** Files from this size on are read case by case (tests lower it). */
    wholeBelow: number = WHOLE_BELOW,
  ): Promise<SuiteBaseline | null> {
    const read = await readBaselineBytes(dir, suite);
    if (!read) return null;
    const { file, bytes } = read;
    // A small baseline is read whole, as it always was: held for one suite it costs little,
    // and whole is faster than case by case.
    if (bytes.length < wholeBelow) return whole(file, suite, bytes);
    const top = objectMembers(bytes);
    if (!top || skipSpace(bytes, top.end) !== bytes.length) return whole(file, suite, bytes);
    const head: Record<string, unknown> = {};
    let casesAt: { start: number; end: number } | null = null;
    try {
      for (const m of top.members) {
        if (m.key === 'cases') casesAt = m;
        else head[m.key] = JSON.parse(bytes.toString('utf8', m.start, m.end));
      }
    } catch {
      return whole(file, suite, bytes);
    }
    const members = casesAt ? objectMembers(bytes, casesAt.start) : null;
    if (!casesAt || !members || members.end !== casesAt.end) return whole(file, suite, bytes);
    const checked = validateBaseline({ ...head, cases: {} });
    if ('error' in checked) throw new FileError(file, `the baseline ${checked.error}; ${BASELINE_REMEDY}`);
    const { cases: _none, ...baselineHead } = checked.value;
    if (baselineHead.suite !== suite) return whole(file, suite, bytes);
    const columns = new FigureColumns();
    // Cases are parsed and checked a batch at a time: one JSON.parse and one shape check per
    // batch costs what the whole file's did, and only a batch is ever an object graph.
    for (let from = 0; from < members.members.length; from += BATCH) {
      const batch = members.members.slice(from, from + BATCH);
      let cases: Record<string, unknown>;
      try {
        const body = bytes.toString('utf8', batch[0]!.keyStart, batch[batch.length - 1]!.end);
        cases = JSON.parse(`{${body}}`) as Record<string, unknown>;
      } catch {
        return whole(file, suite, bytes);
      }
      if ('error' in validateBaseline({ ...head, cases })) return whole(file, suite, bytes);
      for (const m of batch) {
        const c = cases[m.key] as BaselineCase;
        columns.add(
          m.key,
          {
            status: c.status,
            ...(c.samples ? { samples: c.samples } : {}),
            usage: c.usage,
            ...(c.latency_ms ? { latency_ms: c.latency_ms } : {}),
            error_kind: c.error_kind,
            // What the recorded fields' suite-wide rules read (tool use).
            ...suiteRuleStored(c),
          },
          m,
        );
      }
    }
    // The file the cases are read again from must be the one read: its size now, and
    // CaseBytes checks it is still the same file at every read.
    const identity = await stat(file).catch(() => null);
    if (!identity || identity.size !== bytes.length) throw changedWhileRead(file);
    const again = new CaseBytes(file, identity);
    return new SuiteBaseline(baselineHead, columns, (id) => {
      const at = columns.place(id);
      return at ? (JSON.parse(again.text(at.start, at.end)) as BaselineCase) : null;
    });
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
      const now = fstatSync(fd);
      const then = this.identity;
      if (
        now.ino !== then.ino ||
        now.dev !== then.dev ||
        now.size !== then.size ||
        now.mtimeMs !== then.mtimeMs
      )
        throw changedWhileRead(this.file);
      const read = readSync(fd, this.buffer, 0, Math.min(want, now.size - start), start);
      this.window = this.buffer.subarray(0, read);
      this.start = start;
    } finally {
      closeSync(fd);
    }
    if (this.window.length < length) throw changedWhileRead(this.file);
  }
}

function changedWhileRead(file: string): FileError {
  return new FileError(
    file,
    'the baseline changed while driftcheck was reading it; run again once nothing else writes it',
  );
}

/** Baselines smaller than this (about 10,000 short cases) are read whole. */
const WHOLE_BELOW = 4 * 2 ** 20;

/** Cases parsed and checked together. */
const BATCH = 1_000;

/** The bytes already read, parsed whole (readBaseline's checks and words): never a second read of the file. */
function whole(file: string, suite: string, bytes: Buffer): SuiteBaseline {
  return SuiteBaseline.of(parseBaseline(file, suite, bytes.toString('utf8')));
}
