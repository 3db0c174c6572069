import { IdTable } from '../util/id-table.js';
import type { CaseNight } from './nights.js';
import { readMonths } from './read.js';
import type { TrendSource } from './source.js';
import { type SuiteNight, SuiteNightTally } from './suite-night.js';
import type {
  BaselineAcceptedInput,
  HistoryCaseStatus,
  HistoryProblem,
  HistoryRunInput,
  HistoryToolCounts,
} from './types.js';

const STATUSES: readonly HistoryCaseStatus[] = ['pass', 'fail', 'error', 'not_run'];

/** One night's cases as columns by case slot: status (index + 1; 0: absent), passes and samples. */
interface NightColumns {
  run: HistoryRunInput;
  status: Uint8Array;
  passes: Int32Array;
  samples: Int32Array;
  /** Tool-call counts of the few cases that had tools. */
  tools: Map<number, HistoryToolCounts>;
  /** Its case slots in the order its lines gave them (the page lists cases so). */
  order: Int32Array;
  lines: number;
  /** Each suite's figures that night, added up as its lines were read. */
  figures: Map<string, SuiteNight> | SuiteNightTally;
}

/**
 * The history as tonight's annotations and the trend page read it: each night's run record, and each case's
 * nights as columns (its status, passes and samples per night) — never an object per case
 * and night: about 13 bytes a case-night, 40 MB for thirty nights of a 100,000-case table,
 * where a run holding them as readHistory's objects peaked at 1.4 GB. A case's nights are
 * made when asked for (`nightsOf`); the trend page reads it too (TrendSource).
 */
export class HistoryNights implements TrendSource {
  /** The nights' runs, in time order. */
  readonly runs: readonly HistoryRunInput[];

  private constructor(
    /** Nights in time order, a run appended twice counted once (as readHistory orders them). */
    private readonly nights: readonly NightColumns[],
    private readonly ids: IdTable,
    private readonly suiteIndex: readonly number[],
    private readonly suites: readonly string[],
    readonly baselines: BaselineAcceptedInput[],
    readonly problems: HistoryProblem[],
    /** How many month files it read: 0 for a folder that does not exist or holds none. */
    readonly months: number,
  ) {
    this.runs = nights.map((n) => n.run);
  }

  /** Reads every month file of `dir` as readHistory does (the same lines passed over, the same order). */
  static async read(dir: string): Promise<HistoryNights> {
    const ids = new IdTable();
    const suiteIndex: number[] = [];
    const suites: string[] = [];
    const suiteSlots = new Map<string, number>();
    const read: NightColumns[] = [];
    let night: NightColumns | null = null;
    const close = () => {
      if (!night) return;
      if (night.figures instanceof SuiteNightTally) night.figures = night.figures.close();
      night.order = night.order.slice(0, night.lines);
    };
    const { baselines, problems, months } = await readMonths(dir, {
      run: (run) => {
        close();
        const size = Math.max(1024, ids.size);
        night = {
          run,
          status: new Uint8Array(size),
          passes: new Int32Array(size),
          samples: new Int32Array(size),
          tools: new Map(),
          order: new Int32Array(size),
          lines: 0,
          figures: new SuiteNightTally(),
        };
        read.push(night);
      },
      case: (entry) => {
        const slot = ids.add(`${entry.suite}/${entry.case}`);
        if (slot === suiteIndex.length) {
          let suite = suiteSlots.get(entry.suite);
          if (suite === undefined) {
            suite = suites.length;
            suites.push(entry.suite);
            suiteSlots.set(entry.suite, suite);
          }
          suiteIndex.push(suite);
        }
        const n = night!;
        if (slot >= n.status.length) widen(n, Math.max(slot + 1, n.status.length * 2));
        if (n.lines === n.order.length) {
          const order = new Int32Array(n.order.length * 2);
          order.set(n.order);
          n.order = order;
        }
        n.order[n.lines++] = slot;
        (n.figures as SuiteNightTally).add(entry);
        n.status[slot] = STATUSES.indexOf(entry.status) + 1;
        n.passes[slot] = entry.passes;
        n.samples[slot] = entry.samples;
        if (entry.tools) n.tools.set(slot, entry.tools);
        else n.tools.delete(slot);
      },
    });
    close();
    const order = read.map((_, i) => i);
    order.sort(
      (a, b) =>
        cmp(read[a]!.run.started_at, read[b]!.run.started_at) ||
        cmp(read[a]!.run.run_id, read[b]!.run.run_id),
    );
    // A run appended twice (paused, then resumed to the end) counts once, as last appended (the sort is stable).
    const last = new Map(order.map((i, at) => [read[i]!.run.run_id, at]));
    const nights = order.filter((i, at) => last.get(read[i]!.run.run_id) === at).map((i) => read[i]!);
    return new HistoryNights(nights, ids, suiteIndex, suites, baselines, problems, months);
  }

  /** Each case with its nights, in the order the nights (in time order) first list them. */
  *cases(): Generator<[string, CaseNight[]]> {
    const listed = new Uint8Array(this.ids.size);
    for (const n of this.nights)
      for (const slot of n.order) {
        if (listed[slot]) continue;
        listed[slot] = 1;
        const id = this.ids.at(slot);
        yield [id, this.nightsOf(id)];
      }
  }

  /** How many cases its nights hold. */
  caseCount(): number {
    const listed = new Uint8Array(this.ids.size);
    let count = 0;
    for (const n of this.nights)
      for (const slot of n.order)
        if (!listed[slot]) {
          listed[slot] = 1;
          count++;
        }
    return count;
  }

  /** A suite's figures on the night at this index. */
  suiteNight(night: number, suite: string): SuiteNight | undefined {
    return (this.nights[night]?.figures as Map<string, SuiteNight> | undefined)?.get(suite);
  }

  /** A case's nights (`suite/case`) in time order, made now; empty when the history never ran it. */
  nightsOf(id: string): CaseNight[] {
    const slot = this.ids.slotOf(id);
    if (slot < 0) return [];
    const suite = this.suites[this.suiteIndex[slot]!]!;
    const name = id.slice(suite.length + 1);
    const out: CaseNight[] = [];
    for (const n of this.nights) {
      const status = slot < n.status.length ? n.status[slot]! : 0;
      if (status === 0) continue;
      out.push({
        run: n.run,
        entry: {
          suite,
          case: name,
          status: STATUSES[status - 1]!,
          passes: n.passes[slot]!,
          samples: n.samples[slot]!,
          tools: n.tools.get(slot) ?? null,
        },
      });
    }
    return out;
  }
}

function widen(n: NightColumns, size: number): void {
  const status = new Uint8Array(size);
  status.set(n.status);
  const passes = new Int32Array(size);
  passes.set(n.passes);
  const samples = new Int32Array(size);
  samples.set(n.samples);
  Object.assign(n, { status, passes, samples });
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
