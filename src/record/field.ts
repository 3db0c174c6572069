import type { RequestParams } from '../core/messages.js';
import type { StreamTiming } from '../core/stream-timing.js';
import type { FieldDrift } from './served-change.js';
import type { DriftKindRow } from './severity.js';
import type { DriftSeverity } from './drift-kinds.js';

/** A JSON Schema fragment, as it goes into schemas/report.schema.json. */
export type JsonSchema = Record<string, unknown>;

/** The parts of a successful body a recorded field reads from (any may be missing in a malformed one). */
export interface Answer {
  body: Record<string, unknown>;
  choice: Record<string, unknown> | null;
  message: Record<string, unknown> | null;
  /** The parameters of the request it answers (a call is judged against the tools it declared); null when unknown. */
  params: RequestParams | null;
  /** When a streamed answer's tokens came (absent: not streamed). */
  stream?: StreamTiming;
  /**
   * Present for a service that can answer from a response cache (the router): its
   * `X-OpenRouter-Cache-Status` header (HIT, MISS), null when it sent none.
   */
  cache?: { status: string | null };
}

/** What a case keeps whole of its samples: the first by repeat and the first failing one. */
interface Kept<V> {
  first: V | null;
  failure: V | null;
}

/**
 * How a field's values over a case's samples become one value of the case entry. The
 * state is per case and small (a case sampled 100 times costs what one sampled once does).
 */
export interface Fold<V, R> {
  /** The entry value's schema, given the field's value schema. */
  schema(value: JsonSchema): JsonSchema;
  /**
   * State kept per case over every sample; absent for a fold that reads only the samples a
   * case keeps anyway (then a case costs nothing more). `add` gets every sent sample that has the field.
   */
  state?: { start(): unknown; add(state: unknown, value: V): unknown };
  result(state: unknown, kept: Kept<V>): R;
  /**
   * What a report.json case line leaves out: the value this fold gives a case sampled once,
   * as far as the rest of its entry (`entry`) says it; `field` is the recorded field's name.
   * A line holds the fold's value only where it differs, and a reader puts it back
   * (src/stored/report/case-line.ts). Absent: null.
   */
  line?(entry: Readonly<Record<string, unknown>>, field: string): unknown;
}

/** Where a recorded field's rows stand among a case's "Response" details on report.html. */
export type DetailPlace = 'served' | 'usage' | 'outcome';

/** One row of a case's details on report.html: its term, its text (none: no row), and its mark. */
export interface DetailRow {
  term: string;
  text: string | null;
  mark?: 'warn' | 'bad';
}

/** `drift.steps` (suite or case): how many steps more than the baseline's a tool loop may take before steps_changed. */
export interface StepsTolerance {
  extra?: number;
}

/** The `drift:` tolerances the recorded fields' rules read, resolved (case over suite over the defaults). */
export interface RecordedTolerance {
  steps: Required<StepsTolerance>;
  /** `drift.usage`: relative changes tolerated (reasoning is held to completion_tokens'). */
  usage: { completion_tokens: number };
  /** `drift.latency`: how far a timing may move (a time to first token is held to it too). */
  latency: { relative: number; absolute_ms: number; severity: DriftSeverity };
}

/** What a field's drift rule sees: the baseline's stored value and the folded case entry. */
export interface DriftInput<V> {
  baseline: V | null | undefined;
  /** The case entry (its recorded fields by name). */
  current: Readonly<Record<string, unknown>>;
  /** A `--model`/`--models` candidate run: what served it changed by design. */
  candidate: boolean;
  /** The comparison's tolerances; absent: each rule's default. */
  tolerance?: RecordedTolerance;
}

/**
 * What a field's suite-wide drift rule sees of one case it may compare: its baseline's stored
 * value and its entry. Exported for the declarations of every field module (dist/*.d.ts).
 * @public
 */
export interface SuiteDriftCase<V> {
  case: string;
  baseline: V | null | undefined;
  current: Readonly<Record<string, unknown>>;
  /** The case's `drift:` tolerances, resolved (case over suite over the defaults). */
  tolerance: RecordedTolerance;
}

/** A field's drift decided over a suite's cases at once: per case (by id) and of the suite. */
interface SuiteFieldDrift {
  cases: ReadonlyMap<string, readonly FieldDrift[]>;
  suite: readonly FieldDrift[];
}

/**
 * One recorded field: how it is read from an answer, kept on each sample (journal line),
 * folded over a case's samples, left out of and restored to a report.json case line,
 * stored in a baseline, compared as drift (with its kinds' weights), shown in report.html,
 * and its schema. Everything driftcheck does with a field reads it from here: adding a field
 * is one module in `fields/` and one line in RECORDED (src/record/registry.ts).
 */
export interface RecordedField<V, B = V> {
  /** JSON Schema of the value on a sample; the sample's key is absent when the service did not say. */
  schema: JsonSchema;
  /** Reads the value from a successful body; null when the body does not say. */
  extract(answer: Answer): V | null;
  /** Case-entry fields folded from the samples (required in the report). */
  case?: Record<string, Fold<V, unknown>>;
  /** Fields of the case entry's `stats`, folded the same way. */
  stats?: Record<string, Fold<V, unknown>>;
  /** Suite fields listing every value of a case list field (`from`), most cases first. */
  suite?: Record<string, { from: string }>;
  /**
   * The case-entry field a baseline stores under this field's name, when it has a value (of
   * type B); its schema in a stored baseline is that case field's.
   */
  baseline?: { from: string };
  /**
   * Its rows in a case's details on report.html, placed beside what served the answer (after
   * the models), its usage, or its outcome (after the pass rate); `entry` is the case entry,
   * `baseline` what the case's baseline stores of the field (undefined: none). `label`, when
   * given, is a word the case's row in the list carries (`streamed`), null for none.
   */
  detail?: {
    at: DetailPlace;
    rows(entry: Readonly<Record<string, unknown>>, baseline?: B | null): DetailRow[];
    label?(entry: Readonly<Record<string, unknown>>): string | null;
  };
  /**
   * Drift against the baseline's stored value; `kinds` are the drift kinds it may report,
   * each with its row of the drift kinds' table (its default severity; src/record/drift-kinds.ts).
   * `diff` judges one case; `suite` judges the suite's cases together — where a test over
   * many cases must be adjusted for their number (rates of repeated cases, timings); a field
   * judged only over the suite gives no `diff`. `suite`
   * is given the compared cases that hold a value of some such field on either side, not
   * the cases with none (a suite of 100,000 plain cases hands it no list).
   */
  drift?: {
    kinds: Readonly<Record<string, DriftKindRow>>;
    diff?(input: DriftInput<B>): FieldDrift[];
    suite?(
      cases: readonly SuiteDriftCase<B>[],
      options: { alpha: number; candidate?: boolean; tolerance: RecordedTolerance },
    ): SuiteFieldDrift;
  };
}
