import { RECORDED_FIELDS } from '../../record/registry.js';
import { isRecord } from '../../util/is-record.js';
import { setField } from '../../util/own-field.js';
import type { CaseDetail, CaseEntry, SuiteReport } from './types.js';
import type { CaseStatus } from '../../core/words.js';
import type { Message } from '../../core/messages.js';
import { hasDrift } from '../../core/words.js';

/**
 * 3: each suite's `system` prompt once in `suites[]`, and each case line without what a
 * reader restores (below). 2 wrote every field of every case and the system prompt in each
 * case's messages; it is still read.
 */
export const REPORT_SCHEMA_VERSION = 3;

/** What a case line is read against: its suite's entry in the report's head. */
export type LineSuite = Pick<SuiteReport, 'suite' | 'service' | 'requested_model' | 'system'>;

/** The whole case while it is restored or checked, its suite, and the object the field sits in. */
interface Context {
  entry: Record<string, unknown>;
  suite: LineSuite | undefined;
  parent: Record<string, unknown>;
}

/**
 * One field a case line may leave out: absent, it is `derive`d from fields before it (in
 * this order) and the suite. The writer leaves it out only when that gives back exactly
 * the value it has, so the rules can never lose anything: at worst a field is written.
 */
export interface Rule {
  key: string;
  derive?: (c: Context) => unknown;
  /**
   * Derived once the rules without it are back, keeping its place among them: a recorded
   * field's, which may read any field of the case (native_finish_reason reads finish_reason).
   */
  late?: boolean;
  /** An object whose own fields follow these rules when it is written. */
  fields?: readonly Rule[];
}

const value = (v: unknown) => () => v;
const entryOf = (c: Context) => c.entry as unknown as CaseEntry;
const one = (status: CaseStatus, s: CaseStatus): number => (status === s ? 1 : 0);
const known = (n: number | null | undefined): number => (typeof n === 'number' ? n : 0);
const usageOf = (c: Context) => entryOf(c).usage;
const costOf = (c: Context) => {
  const cost = usageOf(c)?.cost;
  return typeof cost === 'number' ? cost : null;
};
/** A list holding the one value, or none: what a case answered by one model has. */
const single = (v: string | null) => (v === null ? [] : [v]);

/**
 * The recorded fields' rules, from each fold's `line` (src/record/fields/): where the fold
 * writes them, a case's after its `models` and its stats' after `total_tokens`, so a case
 * read back has its fields in the order a run wrote them.
 */
function recordedRules(at: 'case' | 'stats'): Rule[] {
  return RECORDED_FIELDS.flatMap(([field, f]) =>
    Object.entries(f[at] ?? {}).map(([key, fold]): Rule => ({
      key,
      late: true,
      derive: fold.line ? (c) => fold.line!(c.entry, field) : value(null),
    })),
  );
}

/**
 * The case entry's fields in order. What is derived is what a case sampled once says
 * anyway — its counts from its status, its sums from its usage, its lists from its one
 * value — and the suite's own service and model: most cases of most runs are that. A
 * recorded field costs a line nothing in the many cases that do not have it.
 */
export const CASE_RULES: readonly Rule[] = [
  { key: 'suite' },
  { key: 'case' },
  // What DESIGN.md promises every case records (suite, case, service, requested_model) is
  // always written, so `jq '.cases[].service'` needs no rules; the rest below may be restored.
  { key: 'id' },
  { key: 'service' },
  { key: 'requested_model' },
  { key: 'status' },
  {
    key: 'samples',
    derive: (c) => {
      const s = entryOf(c).status;
      const sent = s === 'not_run' ? 0 : 1;
      return {
        planned: 1,
        sent,
        passed: one(s, 'pass'),
        failed: one(s, 'fail'),
        errored: one(s, 'error'),
        not_run: 1 - sent,
      };
    },
  },
  { key: 'pass_rate', derive: value(null) },
  { key: 'within_max_steps' },
  { key: 'sampling' },
  { key: 'model', derive: value(null) },
  { key: 'models', derive: (c) => single(entryOf(c).model) },
  ...recordedRules('case'),
  { key: 'finish_reason', derive: value(null) },
  { key: 'usage', derive: value(null) },
  { key: 'cache_status', derive: value(null) },
  { key: 'response_id', derive: value(null) },
  { key: 'started_at', derive: value(null) },
  { key: 'error', derive: value(null) },
  { key: 'error_kinds', derive: (c) => (entryOf(c).error ? { [entryOf(c).error!.kind]: 1 } : {}) },
  { key: 'checks', derive: value([]) },
  {
    key: 'check_passes',
    derive: (c) => entryOf(c).checks.map((k) => (k.pass ? entryOf(c).samples.sent : 0)),
  },
  { key: 'content', derive: value(null) },
  { key: 'conversation' },
  { key: 'answers', derive: value([]) },
  { key: 'other_answers', derive: value(0) },
  { key: 'first_failure', derive: value(null) },
  {
    key: 'stats',
    fields: [
      { key: 'prompt_tokens', derive: (c) => known(usageOf(c)?.prompt_tokens) },
      { key: 'completion_tokens', derive: (c) => known(usageOf(c)?.completion_tokens) },
      { key: 'total_tokens', derive: (c) => known(usageOf(c)?.total_tokens) },
      ...recordedRules('stats'),
      { key: 'cost', derive: costOf },
      { key: 'with_usage', derive: (c) => (usageOf(c) ? 1 : 0) },
      { key: 'with_cost', derive: (c) => (costOf(c) === null ? 0 : 1) },
      {
        key: 'latency_ms',
        derive: value(null),
        fields: [
          { key: 'p50' },
          { key: 'p95', derive: (c) => c.parent.p50 },
          { key: 'max', derive: (c) => c.parent.p95 },
        ],
      },
      {
        key: 'answered',
        derive: (c) => {
          const p = c.parent as unknown as CaseEntry['stats'];
          if (entryOf(c).status === 'error')
            return {
              with_usage: 0,
              completion_tokens: 0,
              total_tokens: 0,
              cost: null,
              with_cost: 0,
              latency_ms: null,
            };
          // A case answered once: its latency sketch is that one answer's latency.
          const once = p.latency_ms?.p50;
          return {
            with_usage: p.with_usage,
            completion_tokens: p.completion_tokens,
            total_tokens: p.total_tokens,
            cost: p.cost,
            with_cost: p.with_cost,
            latency_ms: typeof once === 'number' ? { n: 1, p50: once, p95: once, sample: [once] } : null,
          };
        },
      },
      { key: 'attempts', derive: (c) => entryOf(c).samples.sent },
      { key: 'wait_ms', derive: value(0) },
      { key: 'judge_calls', derive: value(0) },
      { key: 'judge_tokens', derive: value(0) },
      { key: 'judge_cost', derive: value(null) },
    ],
  },
  { key: 'drift', derive: value([]) },
  { key: 'messages', derive: value([]) },
  { key: 'redacted', derive: value(false) },
  { key: 'history' },
  { key: 'detail', derive: (c) => caseDetail(entryOf(c)) },
];

/** Each rule list by key, made once per list (the lists are constants; 100,000 lines are written with them). */
const KEYED = new WeakMap<readonly Rule[], ReadonlyMap<string, Rule>>();
function byKey(rules: readonly Rule[]): ReadonlyMap<string, Rule> {
  let keyed = KEYED.get(rules);
  if (!keyed) KEYED.set(rules, (keyed = new Map(rules.map((r) => [r.key, r]))));
  return keyed;
}

function omit(
  object: Record<string, unknown>,
  rules: readonly Rule[],
  entry: Record<string, unknown>,
  suite: LineSuite | undefined,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const keyed = byKey(rules);
  // One context for every field of this object: what each rule derives from is the same.
  const context: Context = { entry, suite, parent: object };
  for (const key of Object.keys(object)) {
    const v = object[key];
    if (v === undefined) continue;
    const rule = keyed.get(key);
    // Left out only when restoring gives back exactly this value (key order aside).
    if (rule?.derive && restores(rule.derive(context), v)) continue;
    out[key] = rule?.fields && isRecord(v) ? omit(v, rule.fields, entry, suite) : v;
  }
  return out;
}

/**
 * Whether a derived value is the written one. Most fields are scalars (a null, a 0, a
 * status), compared as such. A list or an object is compared as the JSON it is written as
 * (sameJson): what a reader restores is equal to what the line would hold exactly when
 * their texts are (a key order that differs only writes the field). node:util's deep
 * comparison here cost more than the rest of writing a line.
 */
function restores(derived: unknown, written: unknown): boolean {
  if (typeof derived !== 'object' || derived === null || typeof written !== 'object' || written === null)
    return Object.is(derived, written);
  return sameJson(derived, written);
}

/** Whether JSON.stringify writes a value of an object's field at all (undefined, a function or a symbol: not). */
function isWritten(v: unknown): boolean {
  return v !== undefined && typeof v !== 'function' && typeof v !== 'symbol';
}

/**
 * Whether two values are written as the same JSON text, walked side by side rather than
 * serialised: both texts were made for every object field compared (20,000 case lines
 * made and serialised: 166–184 ms → 137–150 ms, best of 8 rounds in 3 runs). JSON's own rules: an object's fields in Object.keys order, those it does not
 * write skipped, a list's holes and unwritable items and every non-finite number as null,
 * and a value with its own toJSON left to JSON.stringify.
 */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'number' && !Number.isFinite(a)) a = null;
  if (typeof b === 'number' && !Number.isFinite(b)) b = null;
  if (!isWritten(a)) a = null;
  if (!isWritten(b)) b = null;
  if (a === b) return true;
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return false;
  if (
    typeof (a as { toJSON?: unknown }).toJSON === 'function' ||
    typeof (b as { toJSON?: unknown }).toJSON === 'function'
  )
    return JSON.stringify(a) === JSON.stringify(b);
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const xs = Object.keys(x);
  const ys = Object.keys(y);
  let i = 0;
  let j = 0;
  for (;;) {
    while (i < xs.length && !isWritten(x[xs[i]!])) i++;
    while (j < ys.length && !isWritten(y[ys[j]!])) j++;
    if (i === xs.length || j === ys.length) return i === xs.length && j === ys.length;
    if (xs[i] !== ys[j] || !sameJson(x[xs[i]!], y[ys[j]!])) return false;
    i++;
    j++;
  }
}

/** `line` with its left-out fields back, in rule order; `root` is the case being restored (null: this is it). */
function restore(
  line: Record<string, unknown>,
  rules: readonly Rule[],
  root: Record<string, unknown> | null,
  suite: LineSuite | undefined,
): Record<string, unknown> {
  // Later rules derive from what is restored so far: `out`, and the case around it.
  const out: Record<string, unknown> = {};
  const entry = root ?? out;
  let late: Rule[] | null = null;
  for (const rule of rules) {
    if (Object.hasOwn(line, rule.key)) {
      const v = line[rule.key];
      out[rule.key] = rule.fields && isRecord(v) ? restore(v, rule.fields, entry, suite) : v;
    } else if (rule.late) {
      // Its place now, its value once the rest is back.
      out[rule.key] = undefined;
      (late ??= []).push(rule);
    } else if (rule.derive) {
      const v = rule.derive({ entry, suite, parent: out });
      if (v !== undefined) out[rule.key] = v;
    }
  }
  for (const rule of late ?? []) {
    const v = rule.derive!({ entry, suite, parent: out });
    if (v === undefined) delete out[rule.key];
    else out[rule.key] = v;
  }
  // Fields no rule knows (a newer writer's) pass through as they are; a key named
  // `__proto__` in a file stays a plain field (setField).
  for (const [key, v] of Object.entries(line)) if (!Object.hasOwn(out, key)) setField(out, key, v);
  return out;
}

/** The messages as a line holds them: without the suite's system prompt in front (schema 3). */
function ownMessages(messages: readonly Message[], system: string | undefined): readonly Message[] {
  const [first, ...own] = messages;
  return system !== undefined && first?.role === 'system' && first.content === system ? own : messages;
}

/** A case entry as report.json (schema 3) holds it: see CASE_RULES for what is left out. Pure. */
export function caseLine(entry: CaseEntry, suite: LineSuite | undefined): Record<string, unknown> {
  const whole = entry as unknown as Record<string, unknown>;
  const line = omit(whole, CASE_RULES, whole, suite);
  const messages = ownMessages(entry.messages, suite?.system);
  if (messages.length > 0) line.messages = messages;
  else delete line.messages;
  return line;
}

/**
 * A case line of report.json back as the entry the fold made, for every reader (`diff`,
 * `merge`, `baseline accept`, the history): schema 3 restored by CASE_RULES and its suite's
 * system prompt; a schema-2 entry only gains what it did not record (`detail`). Pure; a
 * line whose fields are not of the types driftcheck writes may throw a TypeError, which
 * the reader turns into an error naming the line.
 */
export function entryFromLine(
  line: Record<string, unknown>,
  suite: LineSuite | undefined,
  schema: number,
): CaseEntry {
  if (schema < REPORT_SCHEMA_VERSION) {
    const entry = line as unknown as CaseEntry;
    entry.detail ??= caseDetail(entry);
    return entry;
  }
  const entry = restore(line, CASE_RULES, null, suite) as unknown as CaseEntry;
  const system = suite?.system;
  if (system !== undefined) entry.messages = [{ role: 'system', content: system }, ...entry.messages];
  return entry;
}

/**
 * How much of a case the reviewing reports show, the one place it is decided: `brief` when
 * every sample passed and nothing changed against the baseline (a new case is not a
 * change), and no history, redaction, pass-rate finding, answer from a response cache or
 * plugin that changes answers (the router's) asks for a look; else `full`.
 */
export function caseDetail(
  entry: Pick<CaseEntry, 'status' | 'samples' | 'drift' | 'redacted' | 'history'> &
    Partial<Pick<CaseEntry, 'cache_hits' | 'zero_usage' | 'plugins'>>,
): CaseDetail {
  const s = entry.samples;
  const clean = entry.status === 'pass' && s.sent > 0 && s.passed === s.sent && s.not_run === 0;
  const behind = (entry.cache_hits ?? 0) + (entry.zero_usage ?? 0) > 0 || (entry.plugins?.length ?? 0) > 0;
  return clean && !hasDrift(entry) && !entry.redacted && !entry.history && !behind ? 'brief' : 'full';
}
