import type { BaselineCase } from './types.js';
import type { ErrorKind } from '../../core/answer.js';
import { columns, orNaN, orNull, widenColumns } from '../../util/columns.js';
import { NONE_RECORDED, suiteRuleStored } from './recorded.js';
import type { CaseLookup } from './case-lookup.js';
import { IdTable } from '../../util/id-table.js';
import type { BaselineFigures } from './suite-baseline.js';
import type { Samples } from '../../stats/samples.js';
import { baselineWithin } from './within-max-steps.js';

const STATUSES: readonly BaselineCase['status'][] = ['pass', 'fail', 'error'];
/** flags: HAS_USAGE when its usage is not null (plus HAS_COST when it has a `cost` key), HAS_SAMPLES when it keeps `samples`. */
const HAS_USAGE = 1;
const HAS_COST = 2;
const HAS_SAMPLES = 4;

/**
 * A large baseline's figures (what a suite's tests read of each case: BaselineFigures) as
 * columns of numbers by case, in the file's order, with each case's place in the file. A
 * case costs about 130 bytes outside the JavaScript heap, its id among them, where it was
 * six objects and two map entries (about 400 bytes of heap). A case's figures are made
 * when asked for, and die young: the suite's tests read them a case at a time.
 */
export class FigureColumns implements CaseLookup<BaselineFigures> {
  /** Case ids by slot, and the slot of an id (outside the heap: IdTable). */
  private readonly slots = new IdTable();
  private capacity = 0;
  private readonly u8 = columns(['status', 'errorKind', 'flags'], (n) => new Uint8Array(n));
  private readonly i32 = columns(['pass', 'total', 'poolFrom'], (n) => new Int32Array(n));
  private readonly f64 = columns(
    ['prompt', 'completion', 'totalTokens', 'cost', 'n', 'p50', 'p95', 'start', 'end'],
    (n) => new Float64Array(n),
  );
  /** Latency samples of every case, each as its length then its values (poolFrom: where; -1 none). */
  private pool = new Float64Array(0);
  private pooled = 0;
  /** Error kinds, by their code in `errorKind` (0: none). */
  private readonly kinds: (ErrorKind | null)[] = [null];
  /** The few cases with stored values of the recorded fields' suite-wide rules (tool use). */
  private readonly recorded = new Map<number, Record<string, unknown>>();
  /** The few tool loops' samples of finishing within max_steps (baselineWithin). */
  private readonly within = new Map<number, Samples>();

  /**
   * Keeps a case's figures (read from its baseline entry, `figures`) and its place in the
   * file; a later one for an id replaces it.
   */
  add(id: string, figures: BaselineFigures, at: { start: number; end: number }): void {
    const slot = this.slots.add(id);
    if (slot >= this.capacity) this.grow(Math.max(1024, Math.ceil(this.capacity * 1.5)));
    const { u8, i32, f64 } = this;
    u8.status[slot] = STATUSES.indexOf(figures.status);
    u8.errorKind[slot] = this.kindCode(figures.error_kind);
    if (figures.samples) {
      i32.pass[slot] = figures.samples.pass;
      i32.total[slot] = figures.samples.total;
    }
    const u = figures.usage;
    u8.flags[slot] =
      (u ? HAS_USAGE | (Object.hasOwn(u, 'cost') ? HAS_COST : 0) : 0) | (figures.samples ? HAS_SAMPLES : 0);
    f64.prompt[slot] = orNaN(u?.prompt_tokens);
    f64.completion[slot] = orNaN(u?.completion_tokens);
    f64.totalTokens[slot] = orNaN(u?.total_tokens);
    f64.cost[slot] = orNaN(u?.cost);
    const l = figures.latency_ms;
    i32.poolFrom[slot] = l ? this.toPool(l.sample) : -1;
    f64.n[slot] = l?.n ?? 0;
    f64.p50[slot] = l?.p50 ?? 0;
    f64.p95[slot] = l?.p95 ?? 0;
    f64.start[slot] = at.start;
    f64.end[slot] = at.end;
    // What the recorded fields' suite-wide rules read (tool use).
    const stored = suiteRuleStored(figures);
    if (stored !== NONE_RECORDED) this.recorded.set(slot, stored);
    else this.recorded.delete(slot);
    const within = baselineWithin(figures);
    if (within) this.within.set(slot, within);
    else this.within.delete(slot);
  }

  /** Where a case is in the file: its first byte and the byte after its last. */
  place(id: string): { start: number; end: number } | null {
    const slot = this.slots.slotOf(id);
    return slot === -1 ? null : { start: this.f64.start[slot]!, end: this.f64.end[slot]! };
  }

  /** A case's figures, made from the columns (undefined: no such case). */
  get(id: string): BaselineFigures | undefined {
    const slot = this.slots.slotOf(id);
    if (slot === -1) return undefined;
    const { u8, i32, f64 } = this;
    const flags = u8.flags[slot]!;
    const from = i32.poolFrom[slot]!;
    return {
      status: STATUSES[u8.status[slot]!]!,
      ...(flags & HAS_SAMPLES ? { samples: { pass: i32.pass[slot]!, total: i32.total[slot]! } } : {}),
      usage:
        (flags & HAS_USAGE) === 0
          ? null
          : {
              prompt_tokens: orNull(f64.prompt[slot]!),
              completion_tokens: orNull(f64.completion[slot]!),
              total_tokens: orNull(f64.totalTokens[slot]!),
              ...(flags & HAS_COST ? { cost: orNull(f64.cost[slot]!) } : {}),
            },
      ...(from === -1
        ? {}
        : {
            latency_ms: {
              n: f64.n[slot]!,
              p50: f64.p50[slot]!,
              p95: f64.p95[slot]!,
              sample: Array.from(this.pool.subarray(from + 1, from + 1 + this.pool[from]!)),
            },
          }),
      error_kind: this.kinds[u8.errorKind[slot]!]!,
      ...(this.within.has(slot) ? { within_max_steps: this.within.get(slot)! } : {}),
      ...this.recorded.get(slot),
    };
  }

  /** What the suite-wide rules read of a case (suiteRuleStored, as `add` kept it). */
  recordedOf(id: string): Readonly<Record<string, unknown>> {
    const slot = this.slots.slotOf(id);
    return (slot === -1 ? undefined : this.recorded.get(slot)) ?? NONE_RECORDED;
  }

  has(id: string): boolean {
    return this.slots.slotOf(id) !== -1;
  }

  /** Case ids in the file's order. */
  ids(): Iterable<string> {
    return this.slots;
  }

  /**
   * Makes room for about `cases` cases, `pooled` latency values among them, when they are
   * more than there is room for: a baseline walked a batch at a time knows from its first
   * batch about how many it holds, and columns grown by doubling held up to twice that
   * (and, while they grew, the old columns beside the new ones).
   */
  reserve(cases: number, pooled: number): void {
    if (cases > this.capacity) this.grow(Math.ceil(cases));
    if (pooled > this.pool.length) this.widenPool(Math.ceil(pooled));
  }

  /** Latency values pooled so far (with each sample's length). */
  get pooledValues(): number {
    return this.pooled;
  }

  private kindCode(kind: ErrorKind | null): number {
    const known = this.kinds.indexOf(kind);
    return known === -1 ? this.kinds.push(kind) - 1 : known;
  }

  /** Puts a latency sample in the pool as its length, then its values; where it begins. */
  private toPool(sample: readonly number[]): number {
    const need = this.pooled + 1 + sample.length;
    if (need > this.pool.length) this.widenPool(Math.max(4096, need, this.pool.length * 2));
    const from = this.pooled;
    this.pool[from] = sample.length;
    this.pool.set(sample, from + 1);
    this.pooled = need;
    return from;
  }

  private widenPool(size: number): void {
    const wider = new Float64Array(size);
    wider.set(this.pool.subarray(0, this.pooled));
    this.pool = wider;
  }

  private grow(capacity: number): void {
    this.slots.reserve(capacity);
    widenColumns(this.u8, capacity);
    widenColumns(this.i32, capacity);
    widenColumns(this.f64, capacity);
    this.capacity = capacity;
  }
}
