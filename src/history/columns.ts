import { IdTable } from '../util/id-table.js';
import type { CaseNight } from './nights.js';
import { readMonths } from './read.js';
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
}

/**
 * The history as tonight's annotations read it: each night's run record, and each case's
 * nights as columns (its status, passes and samples per night) — never an object per case
 * and night. Thirty nights of a 100,000-case table held that way take about 30 MB; as
 * readHistory's objects, 1.4 GB. A case's nights are made when asked for (`nightsOf`).
 */
export class HistoryNights {
  private constructor(
    /** Nights in time order, a run appended twice counted once (as readHistory orders them). */
    private readonly nights: readonly NightColumns[],
    private readonly ids: IdTable,
    private readonly suiteIndex: readonly number[],
    private readonly suites: readonly string[],
    readonly baselines: BaselineAcceptedInput[],
    readonly problems: HistoryProblem[],
  ) {}

  /** Reads every month file of `dir` as readHistory does (the same lines passed over, the same order). */
  static async read(dir: string): Promise<HistoryNights> {
    const ids = new IdTable();
    const suiteIndex: number[] = [];
    const suites: string[] = [];
    const suiteSlots = new Map<string, number>();
    const read: NightColumns[] = [];
    let night: NightColumns | null = null;
    const { baselines, problems } = await readMonths(dir, {
      run: (run) => {
        const size = Math.max(1024, ids.size);
        night = {
          run,
          status: new Uint8Array(size),
          passes: new Int32Array(size),
          samples: new Int32Array(size),
          tools: new Map(),
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
        n.status[slot] = STATUSES.indexOf(entry.status) + 1;
        n.passes[slot] = entry.passes;
        n.samples[slot] = entry.samples;
        if (entry.tools) n.tools.set(slot, entry.tools);
        else n.tools.delete(slot);
      },
    });
    const order = read.map((_, i) => i);
    order.sort(
      (a, b) =>
        cmp(read[a]!.run.started_at, read[b]!.run.started_at) ||
        cmp(read[a]!.run.run_id, read[b]!.run.run_id),
    );
    // A run appended twice (paused, then resumed to the end) counts once, as last appended (the sort is stable).
    const last = new Map(order.map((i, at) => [read[i]!.run.run_id, at]));
    const nights = order.filter((i, at) => last.get(read[i]!.run.run_id) === at).map((i) => read[i]!);
    return new HistoryNights(nights, ids, suiteIndex, suites, baselines, problems);
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
