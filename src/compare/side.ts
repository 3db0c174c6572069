import { isFixed } from '../core/words.js';
import { tmpdir } from 'node:os';
import { Spill, SPILL_HOLD } from '../fold/spill.js';
import { IdTable } from '../util/id-table.js';
import { isUnanswered } from '../core/error-kinds.js';
import type { CaseEntry, ReportHead } from '../stored/report/types.js';
import type { CaseStatus } from '../core/words.js';
import type { Drift } from '../record/drift-kinds.js';
import type { ErrorKind } from '../core/answer.js';
import type { FoldedCase } from '../fold/published.js';
import { errorPlace, placeText } from '../fold/conversation.js';
import type { Totals } from '../fold/totals.js';
import type { VerdictCase } from './verdict.js';
import type { Change } from '../core/words.js';
import type { CandidateCell, ReferenceCell } from './types.js';

/**
 * What a comparison keeps of one case of one run until its row is made: the facts its cell
 * shows, its change against the baseline its run was folded with, what its drift says of
 * that baseline, and the numbers its paired verdict reads — never its checks, messages or
 * drift objects. Plain JSON (it may wait on disk).
 */
export interface KeptCase extends Pick<
  CandidateCell,
  'error_kind' | 'content' | 'model' | 'providers' | 'latency_ms' | 'ttft_ms' | 'cost' | 'note' | 'trajectory'
> {
  status: CaseStatus;
  passed: number;
  sent: number;
  /** Samples no model answered (error-kinds.ts isUnanswered: refused, not routed, timed out…). */
  unanswered: number;
  /** Against the baseline its run was folded with. */
  change: Change;
  similarity: number | null;
  /** Its first status drift's word of the baseline's verdict (`said`: it has one). */
  said: boolean;
  said_status: ReferenceCell['status'];
  /** The baseline's answer, as its content_changed drift carries it. */
  base_text: string | null;
  content_drift: boolean;
  /** The baseline's samples its pass rate was compared with. */
  base_samples: { pass: number; total: number } | null;
  /** Mean cost of one sample (the paired verdict's), and its answered samples' latency sketch. */
  sample_cost: number | null;
  latencies: number[];
}

/**
 * One run as a comparison reads it, a case at a time (from its report.json, its journal,
 * or live as its run folds it): each case kept by id (in a spill: the first 2,000 in
 * memory, the rest on disk), so comparing two runs of 100,000 cases holds neither run's
 * entries. `head` and `totals` (the fold's, fold/totals.ts) are set once the run is read.
 */
export class ComparedSide {
  /** Case ids in the order the run gave them; a case's slot keys its kept case. */
  readonly ids = new IdTable();
  /** Each slot's suite, as an index into `suites`. */
  private readonly suiteIndex: number[] = [];
  private readonly suites = new IdTable();
  /** Case names that are not their id after the suite's, by slot. */
  private readonly oddCases = new Map<number, string>();
  /** By slot: 1 when the case sent a sample. */
  private readonly sent: number[] = [];
  private readonly spill: Spill<KeptCase>;
  head: ReportHead | null = null;
  totals: Totals | null = null;

  constructor(
    public dir: string | null,
    /** How many cases are expected (a large run's go to disk from the first: see Spill). */
    expected = 0,
  ) {
    this.spill = new Spill<KeptCase>(tmpdir(), SPILL_HOLD, expected);
  }

  /** Keeps a case as the fold published it (a second entry of an id replaces the first, as a Map would). */
  add(c: FoldedCase): void {
    const e = c.entry;
    const slot = this.ids.add(e.id);
    this.suiteIndex[slot] = this.suites.add(e.suite);
    // A case's name is its id after the suite's; one that is not (a report.json edited by hand) is kept.
    if (e.id === `${e.suite}/${e.case}`) this.oddCases.delete(slot);
    else this.oddCases.set(slot, e.case);
    this.sent[slot] = e.samples.sent > 0 ? 1 : 0;
    this.spill.put(slot, keptOf(c));
  }

  /** How many cases it holds. */
  get size(): number {
    return this.ids.size;
  }

  /** The suite of the case in `slot`. */
  suiteAt(slot: number): string {
    return this.suites.at(this.suiteIndex[slot]!);
  }

  /** The name of the case in `slot` where it is not its id after the suite's; else undefined. */
  oddCase(slot: number): string | undefined {
    return this.oddCases.get(slot);
  }

  /** The kept cases of these slots, in this order, each read once. */
  read(slots: Iterable<number>): AsyncGenerator<KeptCase | undefined> {
    return this.spill.read(slots);
  }

  /** Whether it ran the case of this id (sent it at least one sample): what a reference can be paired on. */
  ran(id: string): boolean {
    const slot = this.ids.slotOf(id);
    return slot >= 0 && this.sent[slot] === 1;
  }

  /** Whether it ran any case. */
  ranAny(): boolean {
    return this.sent.includes(1);
  }

  /** Removes what it spilled to disk. */
  discard(): Promise<void> {
    return this.spill.discard();
  }
}

/** A case as the comparison keeps it (KeptCase). Pure. */
export function keptOf({ entry: e, review }: FoldedCase): KeptCase {
  const verdict = againstBaseline(e, review === 'regressed');
  let said: Drift | undefined;
  let text: Drift | undefined;
  let contentDrift = false;
  for (const d of e.drift) {
    if (!said && STATUS_DRIFT.has(d.kind)) said = d;
    if (d.kind === 'content_changed') {
      contentDrift = true;
      if (!text && typeof d.baseline === 'string') text = d;
    }
  }
  const base = e.pass_rate?.baseline;
  const { cost, with_cost } = e.stats;
  return {
    status: e.status,
    passed: e.samples.passed,
    sent: e.samples.sent,
    unanswered: unansweredOf(e.error_kinds),
    error_kind: e.error?.kind ?? null,
    content: e.content,
    model: e.model,
    providers: [...e.providers],
    latency_ms: e.stats.latency_ms?.p50 ?? null,
    // A streamed case's alone: a case not streamed keeps no key.
    ...(e.streaming ? { ttft_ms: e.streaming.ttft_ms?.p50 ?? null } : {}),
    cost: e.stats.cost,
    note: noteOf(e),
    change: verdict.change,
    similarity: verdict.similarity,
    said: said !== undefined,
    said_status: said ? statusIn(said) : null,
    base_text: text ? (text.baseline as string) : null,
    content_drift: contentDrift,
    base_samples: base ? { pass: base.pass, total: base.total } : null,
    sample_cost: cost !== null && with_cost > 0 ? cost / with_cost : null,
    latencies: [...(e.stats.answered.latency_ms?.sample ?? [])],
    ...(e.trajectory ? { trajectory: e.trajectory } : {}),
  };
}

/**
 * A run's case as the paired verdict reads it: passed of sent, the mean cost of a costed
 * sample and its answered samples' latency sketch; null when none of its samples was sent.
 */
export function verdictCaseOf(id: string, k: KeptCase): VerdictCase | null {
  if (k.sent === 0) return null;
  return {
    id,
    samples: { pass: k.passed, total: k.sent },
    cost: k.sample_cost,
    latency_ms: k.latencies,
    answered: k.sent - k.unanswered,
  };
}

/** How many of a case's samples no model answered, from its error kinds' counts. */
function unansweredOf(kinds: CaseEntry['error_kinds']): number {
  let n = 0;
  for (const [kind, count] of Object.entries(kinds)) if (isUnanswered(kind as ErrorKind)) n += count ?? 0;
  return n;
}

interface Verdict {
  change: Change;
  similarity: number | null;
}

/**
 * Against the baseline the run was folded with: its drift decided, with the suite's
 * tolerances; `regressed` as the fold classed it.
 */
function againstBaseline(e: CaseEntry, regressed: boolean): Verdict {
  const content = e.drift.find((d) => d.kind === 'content_changed');
  const similarity = content?.similarity ?? null;
  if (e.status === 'not_run') return { change: 'not_run', similarity: null };
  if (regressed) return { change: 'regressed', similarity };
  if (isFixed(e)) return { change: 'fixed', similarity };
  if (e.drift.some((d) => d.kind === 'new_case')) return { change: 'new', similarity: null };
  if (content || e.drift.some((d) => d.severity === 'warn')) return { change: 'changed', similarity };
  return { change: 'same', similarity: null };
}

const NOTE_CHARS = 240;

/** Why a cell reads as it does, one line: the error, the failing checks, or the drift worth a look. */
function noteOf(e: CaseEntry): string | null {
  const parts: string[] = [];
  if (e.error) {
    // A conversation's error names where it stopped, as every view says it.
    const place = errorPlace(e);
    parts.push(`${place ? `${placeText(place)}: ` : ''}${e.error.kind}: ${e.error.message}`);
  } else for (const k of e.checks) if (!k.pass) parts.push(`${k.type}: ${k.message}`);
  for (const d of e.drift) if (d.severity !== 'info' && d.kind !== 'new_error') parts.push(d.message);
  if (parts.length === 0) return null;
  const text = parts.join('; ').replace(/\s+/g, ' ');
  return text.length > NOTE_CHARS ? `${text.slice(0, NOTE_CHARS)}…` : text;
}

const STATUS_DRIFT = new Set(['regressed', 'fixed', 'new_error', 'refused', 'error_changed']);

function statusIn(d: Drift): ReferenceCell['status'] {
  if (d.kind === 'error_changed') return 'error';
  return d.baseline === 'pass' || d.baseline === 'fail' || d.baseline === 'error' ? d.baseline : null;
}
