import { IdTable } from '../util/id-table.js';
import { orNaN, orNull, widenColumns } from '../util/columns.js';
import type { CaseNight } from './nights.js';
import { inNightOrder, readMonths } from '../stored/history/read.js';
import type { TrendSource } from './source.js';
import { type SuiteNight, SuiteNightTally } from './suite-night.js';
import type {
  BaselineAcceptedInput,
  HistoryCaseStatus,
  HistoryProblem,
  HistoryRunInput,
  HistoryLoop,
  HistoryToolCounts,
} from '../stored/history/types.js';

const STATUSES: readonly HistoryCaseStatus[] = ['pass', 'fail', 'error', 'not_run'];

/** One night: its run, and its cases as columns by case slot. */
interface NightColumns {
  run: HistoryRunInput;
  /** By case slot: status (index in STATUSES + 1; 0: absent that night), passes and samples. */
  cases: { status: Uint8Array; passes: Int32Array; samples: Int32Array };
  /** Tool-call counts of the few cases that had tools. */
  tools: Map<number, HistoryToolCounts>;
  /** The conversations' nights, of the few cases that were conversations. */
  loops: Map<number, HistoryLoop>;
  /**
   * By case slot, a streamed case's median time to first token (NaN: not streamed); made at
   * the night's first streamed case, so a history without streams holds none.
   */
  ttft: { ms: Float64Array } | null;
  /** Its case slots in the order its lines gave them (the page lists cases so); `lines` of them used. */
  order: { slots: Int32Array };
  lines: number;
  /** Each suite's figures that night, added up as its lines were read. */
  figures: ReadonlyMap<string, SuiteNight>;
}

/**
 * The history as tonight's annotations and the trend page read it: each night's run record,
 * and each case's nights as columns (its status, passes and samples per night) — never an
 * object per case and night: about 13 bytes a case-night (8 more on a night a case was
 * streamed), 40 MB for thirty nights of a 100,000-case table, where a run holding them as readHistory's objects peaked at 1.4 GB.
 * A case's nights are made when asked for (`nightsOf`); the trend page reads it too
 * (TrendSource).
 */
export class HistoryNights implements TrendSource {
  /** The nights' runs, in time order. */
  readonly runs: readonly HistoryRunInput[];

  private constructor(
    /** Nights in time order, a run appended twice counted once (inNightOrder, as readHistory). */
    private readonly nights: readonly NightColumns[],
    /** Case ids (`suite/case`) by slot. */
    private readonly ids: IdTable,
    /** Each slot's suite, as an index into `suites`. */
    private readonly suiteIndex: readonly number[],
    private readonly suites: IdTable,
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
    const suites = new IdTable();
    const suiteIndex: number[] = [];
    const read: NightColumns[] = [];
    let night: NightColumns | null = null;
    let tally = new SuiteNightTally();
    const close = () => {
      if (!night) return;
      night.figures = tally.close();
      night.order.slots = night.order.slots.slice(0, night.lines);
    };
    const { baselines, problems, months } = await readMonths(dir, {
      run: (run) => {
        close();
        const size = Math.max(1024, ids.size);
        tally = new SuiteNightTally();
        night = {
          run,
          cases: {
            status: new Uint8Array(size),
            passes: new Int32Array(size),
            samples: new Int32Array(size),
          },
          tools: new Map(),
          loops: new Map(),
          ttft: null,
          order: { slots: new Int32Array(size) },
          lines: 0,
          figures: new Map(),
        };
        read.push(night);
      },
      case: (entry) => {
        const slot = ids.add(`${entry.suite}/${entry.case}`);
        if (slot === suiteIndex.length) suiteIndex.push(suites.add(entry.suite));
        const n = night!;
        const { cases } = n;
        if (slot >= cases.status.length) widenColumns(cases, Math.max(slot + 1, cases.status.length * 2));
        if (n.lines === n.order.slots.length) widenColumns(n.order, n.lines * 2);
        n.order.slots[n.lines++] = slot;
        tally.add(entry);
        cases.status[slot] = STATUSES.indexOf(entry.status) + 1;
        cases.passes[slot] = entry.passes;
        cases.samples[slot] = entry.samples;
        if (entry.tools) n.tools.set(slot, entry.tools);
        else n.tools.delete(slot);
        if (entry.loop) n.loops.set(slot, entry.loop);
        else n.loops.delete(slot);
        if (entry.ttft_p50_ms != null || n.ttft) {
          const ttft = (n.ttft ??= { ms: new Float64Array(cases.status.length).fill(Number.NaN) });
          if (slot >= ttft.ms.length) {
            const from = ttft.ms.length;
            widenColumns(ttft, cases.status.length);
            ttft.ms.fill(Number.NaN, from);
          }
          ttft.ms[slot] = orNaN(entry.ttft_p50_ms);
        }
      },
    });
    close();
    const nights = inNightOrder(read, (n) => n.run);
    return new HistoryNights(nights, ids, suiteIndex, suites, baselines, problems, months);
  }

  /** Each case with its nights, in the order the nights (in time order) first list them. */
  *cases(): Generator<[string, CaseNight[]]> {
    for (const slot of this.listedSlots()) {
      const id = this.ids.at(slot);
      yield [id, this.nightsOf(id)];
    }
  }

  /** How many cases its nights hold. */
  caseCount(): number {
    let count = 0;
    for (const _slot of this.listedSlots()) count++;
    return count;
  }

  /** The slots of the cases its nights hold, each once, in the order the nights first list them. */
  private *listedSlots(): Generator<number> {
    const listed = new Uint8Array(this.ids.size);
    for (const n of this.nights)
      for (const slot of n.order.slots) {
        if (listed[slot]) continue;
        listed[slot] = 1;
        yield slot;
      }
  }

  /** A suite's figures on the night at this index. */
  suiteNight(night: number, suite: string): SuiteNight | undefined {
    return this.nights[night]?.figures.get(suite);
  }

  /** A case's nights (`suite/case`) in time order, made now; empty when the history never ran it. */
  nightsOf(id: string): CaseNight[] {
    const slot = this.ids.slotOf(id);
    if (slot < 0) return [];
    const suite = this.suites.at(this.suiteIndex[slot]!);
    const name = id.slice(suite.length + 1);
    const out: CaseNight[] = [];
    for (const { run, cases, tools, loops, ttft } of this.nights) {
      const status = slot < cases.status.length ? cases.status[slot]! : 0;
      if (status === 0) continue;
      out.push({
        run,
        entry: {
          suite,
          case: name,
          status: STATUSES[status - 1]!,
          passes: cases.passes[slot]!,
          samples: cases.samples[slot]!,
          tools: tools.get(slot) ?? null,
          loop: loops.get(slot) ?? null,
          ttft_p50_ms: ttft && slot < ttft.ms.length ? orNull(ttft.ms[slot]!) : null,
        },
      });
    }
    return out;
  }
}
