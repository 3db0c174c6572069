import type { Answer, Fold, RecordedField } from './field.js';
import type { DriftKindRow } from './severity.js';
import { cachedTokens } from './fields/cached-tokens.js';
import { fromCache } from './fields/from-cache.js';
import { nativeFinishReason } from './fields/native-finish-reason.js';
import { plugins } from './fields/plugins.js';
import { provider } from './fields/provider.js';
import { reasoning } from './fields/reasoning.js';
import { reasoningTokens } from './fields/reasoning-tokens.js';
import { refusal } from './fields/refusal.js';
import { stream } from './fields/stream.js';
import { systemFingerprint } from './fields/system-fingerprint.js';
import { toolCalls } from './fields/tool-calls.js';
import { trajectory } from './fields/trajectory.js';

/**
 * Every recorded field by its name on a completion, a sample and a baseline: extraction,
 * the fold, report.json case lines, baselines, drift and its weights, report.html's case
 * details, the report's types, schemas/report.schema.json and the stored baseline's shape
 * are derived from it. Adding a field is one module in `fields/` and one line here.
 */
export const RECORDED = {
  provider,
  system_fingerprint: systemFingerprint,
  native_finish_reason: nativeFinishReason,
  refusal,
  reasoning,
  reasoning_tokens: reasoningTokens,
  cached_tokens: cachedTokens,
  from_cache: fromCache,
  plugins,
  tool_calls: toolCalls,
  trajectory,
  stream,
} as const;

type Registry = typeof RECORDED;
export type RecordedName = keyof Registry;
type ValueOf<K extends RecordedName> = NonNullable<ReturnType<Registry[K]['extract']>>;
type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void
  ? I
  : never;
type ResultOf<F> = F extends Fold<never, infer R> ? R : never;
type OutputsAt<P extends 'case' | 'stats'> = UnionToIntersection<
  {
    [K in RecordedName]: Registry[K] extends { [Q in P]: infer O }
      ? { [N in keyof O]: ResultOf<O[N]> }
      : Record<never, never>;
  }[RecordedName]
>;

/** What served an answer, where the service says: on each completion, and kept on its sample. */
export type Recorded = { [K in RecordedName]?: ValueOf<K> | null };
/** The case entry's recorded fields (e.g. provider, providers). */
export type RecordedCase = OutputsAt<'case'>;
/** The recorded fields of a case entry's `stats` (e.g. reasoning_tokens). */
export type RecordedStats = OutputsAt<'stats'>;
/** The suite report's recorded lists (e.g. providers). */
export type RecordedSuite = UnionToIntersection<
  {
    [K in RecordedName]: Registry[K] extends { suite: infer O }
      ? { [N in keyof O]: ValueOf<K>[] }
      : Record<never, never>;
  }[RecordedName]
>;
/** What a baseline stores of a field: its case-entry field's value when `from` names a fold of its own, else the value. */
type BaselineOf<K extends RecordedName> = Registry[K] extends { baseline: { from: infer F }; case: infer C }
  ? F extends keyof C
    ? NonNullable<ResultOf<C[F]>>
    : ValueOf<K>
  : ValueOf<K>;
/** What a baseline case stores of the recorded fields, when the service said. */
export type RecordedBaseline = {
  [K in RecordedName as Registry[K] extends { baseline: object } ? K : never]?: BaselineOf<K> | null;
};
/** Drift kinds the recorded fields report (provider_changed, …). */
export type RecordedDriftKind = {
  [K in RecordedName]: Registry[K] extends { drift: { kinds: infer R } } ? keyof R & string : never;
}[RecordedName];

/** The registry as plain entries, for code that iterates (typed per field above). */
export const RECORDED_FIELDS = Object.entries(RECORDED) as [RecordedName, RecordedField<unknown, unknown>][];

/** Every recorded field read from a successful body, null where it does not say. */
export function extractRecorded(answer: Answer): Required<Recorded> {
  const out: Record<string, unknown> = {};
  for (const [name, field] of RECORDED_FIELDS) out[name] = field.extract(answer);
  return out as Required<Recorded>;
}

/** Copies the recorded fields onto a sample, only those the service gave (journal lines stay short). */
export function copyRecorded(to: Recorded, from: Recorded): void {
  const target = to as Record<string, unknown>;
  for (const [name] of RECORDED_FIELDS) if (from[name] != null) target[name] = from[name];
}

/** The recorded fields' rows of the drift kinds' table, in registry order. */
export const RECORDED_DRIFT_KINDS = Object.fromEntries(
  RECORDED_FIELDS.flatMap(([, f]) => Object.entries(f.drift?.kinds ?? {})),
) as Record<RecordedDriftKind, DriftKindRow>;
