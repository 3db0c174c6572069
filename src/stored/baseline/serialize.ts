import type { Baseline, BaselineCase } from './types.js';
import type { Usage } from '../../core/answer.js';
import { compareText } from '../../util/compare-text.js';
import { setField } from '../../util/own-field.js';

/**
 * Field order of a baseline file. Fixed orders put the fields a reviewer looks at first;
 * any field not listed (a future addition) follows in sorted order, so output never
 * depends on the order in which objects were built.
 */
const TOP_FIELDS = ['schema_version', 'suite', 'service', 'model', 'source_run', 'provenance', 'cases'];
const PROVENANCE_FIELDS = ['kind', 'sim', 'shard', 'complete', 'forced'];
const CASE_FIELDS = [
  'status',
  'samples',
  'within_max_steps',
  'requested_model',
  'model',
  'finish_reason',
  'error_kind',
  'usage',
  'checks',
  'latency_ms',
  'content',
];
const USAGE_FIELDS = ['prompt_tokens', 'completion_tokens', 'total_tokens', 'cost'];
const CHECK_FIELDS = ['type', 'pass'];
const SAMPLES_FIELDS = ['pass', 'total'];
const LATENCY_FIELDS = ['n', 'p50', 'p95', 'sample'];

/**
 * Copies an object with the listed keys first (in that order), then the rest sorted. The
 * listed keys are taken in their order and only the others sorted, into an object filled
 * by assignment: sorting every object's entries by rank and making it with fromEntries was
 * the largest item of accepting 100,000 cases (a case's copy, alone: 5.0 → 1.1 µs). A key
 * `__proto__` stays a field (setField).
 */
function ordered(
  value: object,
  fixed: readonly string[],
  child: (key: string, v: unknown) => unknown,
): object {
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  let taken = 0;
  for (const key of fixed)
    if (isOwn.call(source, key)) {
      out[key] = child(key, source[key]);
      taken++;
    }
  const keys = Object.keys(source);
  if (taken === keys.length) return out;
  for (const key of keys.filter((k) => !fixed.includes(k)).sort(compareText))
    setField(out, key, child(key, source[key]));
  return out;
}

/** Whether a key is an own, enumerable field (what Object.keys lists). */
const isOwn = Object.prototype.propertyIsEnumerable;

/** Deep copy with every object's keys sorted (schemas, unknown fields). */
function sortedDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedDeep);
  if (value !== null && typeof value === 'object') return ordered(value, [], (_k, v) => sortedDeep(v));
  return value;
}

function orderCase(c: BaselineCase): object {
  return ordered(c, CASE_FIELDS, (key, v) => {
    if (key === 'usage' && v !== null) return ordered(v as Usage, USAGE_FIELDS, (_k, x) => sortedDeep(x));
    if (key === 'samples' || key === 'within_max_steps')
      return ordered(v as object, SAMPLES_FIELDS, (_k, x) => sortedDeep(x));
    if (key === 'latency_ms') return ordered(v as object, LATENCY_FIELDS, (_k, x) => sortedDeep(x));
    if (key === 'checks')
      return (v as object[]).map((check) => ordered(check, CHECK_FIELDS, (_k, x) => sortedDeep(x)));
    return sortedDeep(v);
  });
}

/**
 * The exact bytes of `baselines/<suite>.json`, a case at a time: 2-space JSON, trailing
 * newline, cases sorted by id and fields in a fixed order, so accepting an unchanged run
 * rewrites identical bytes and `git diff` shows only what changed; a baseline of 100,000
 * cases is written without its whole text (or a sorted copy of its whole object graph) in
 * memory at once.
 */
export function baselineChunks(baseline: Baseline): AsyncGenerator<string> {
  const { cases, ...head } = baseline;
  return baselineChunksOf(head, caseOrder(Object.keys(cases)), (id) => caseText(cases[id]!));
}

/**
 * Case ids in the order a baseline file lists them, each once: sorted, with integer-like ids
 * ("2", "10") first in numeric order — a rule of JS objects, which is just as deterministic.
 */
export function caseOrder(ids: Iterable<string>): string[] {
  return Object.keys(Object.fromEntries([...ids].sort(compareText).map((id) => [id, 0])));
}

/**
 * A case as the file holds it after its id: its fields in order, indented as it sits two
 * levels in (a JSON string holds no raw line break), latency samples on one line.
 */
export function caseText(c: BaselineCase): string {
  return compactLatencies(JSON.stringify(orderCase(c), null, 2)).replaceAll('\n', '\n    ');
}

/**
 * baselineChunks for a baseline that is not one object: its head, its case ids in file
 * order (caseOrder), and each case's text (caseText) asked for once, in that order, as it
 * is written (made from a case read again from a file, or put aside as text by a stream
 * of entries).
 */
export async function* baselineChunksOf(
  head: Omit<Baseline, 'cases'>,
  ids: readonly string[],
  textOf: (id: string) => string | Promise<string>,
): AsyncGenerator<string> {
  const value = ordered({ ...head, cases: {} }, TOP_FIELDS, (key, v) => {
    if (key === 'provenance') return ordered(v as object, PROVENANCE_FIELDS, (_k, x) => sortedDeep(x));
    return key === 'cases' ? v : sortedDeep(v);
  });
  const text = `${JSON.stringify(value, null, 2)}\n`;
  const at = text.indexOf(CASES);
  if (ids.length === 0 || at < 0) {
    yield text;
    return;
  }
  yield text.slice(0, at + CASES.length - 1);
  yield '\n';
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]!;
    yield `    ${JSON.stringify(id)}: ${await textOf(id)}${i + 1 < ids.length ? ',' : ''}\n`;
  }
  yield `  }${text.slice(at + CASES.length)}`;
}

/** Where the cases go in the file's top level (the sorted ids put integer-like ones first, as an object would). */
const CASES = '\n  "cases": {}';

/**
 * A case's latency sample on one line (`"sample": [412, 430, 455]`), not one number a line:
 * twenty lines a case would drown its answer in a review. Only arrays of plain numbers
 * match — a newline never occurs inside a JSON string, so no answer text can.
 */
function compactLatencies(text: string): string {
  return text.replace(
    /"sample": \[\n([\d\s.,eE+-]*?)\n\s*\]/g,
    (_all, body: string) =>
      `"sample": [${body
        .split(',')
        .map((n) => n.trim())
        .join(', ')}]`,
  );
}
