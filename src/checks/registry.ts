import { type ModelCatalog } from '../core/catalog.js';
import type { Completion } from '../record/answer.js';
import type { ChatRequest } from '../core/messages.js';
import type { Usage } from '../core/answer.js';
import type { ConversationView } from '../core/tool-calls.js';
import { contains } from './kinds/contains.js';
import { equals } from './kinds/equals.js';
import { finishReason } from './kinds/finish-reason.js';
import { icontains } from './kinds/icontains.js';
import { jsonSchema } from './kinds/json-schema.js';
import { judge } from './kinds/judge.js';
import { maxCompletionTokens } from './kinds/max-completion-tokens.js';
import { maxCost } from './kinds/max-cost.js';
import { maxLatencyMs } from './kinds/max-latency-ms.js';
import { nonEmpty } from './kinds/non-empty.js';
import { notContains } from './kinds/not-contains.js';
import { regex } from './kinds/regex.js';
import { noToolCall } from './kinds/no-tool-call.js';
import { toolCall } from './kinds/tool-call.js';
import { toolCallsValid } from './kinds/tool-calls-valid.js';
import { trajectory } from './kinds/trajectory.js';
import { maxSteps } from './kinds/max-steps.js';
import { noRepeatedCall } from './kinds/no-repeated-call.js';
import type { JudgeCall } from './judge.js';

/** What a check's `problems` may know besides the value: the loader's options. */
export interface SuiteCheckOptions {
  allowAlias?: boolean;
  /** A model catalog when one is at hand, for hints that name a real model. */
  catalog?: ModelCatalog;
}

/** Something wrong with a schema-valid expectation value, at a JSON pointer below it. */
export interface CheckProblem {
  pointer: string;
  message: string;
  hint: string;
  /** `warning`: reported, the suite still loads (a value that may be right); absent: an error. */
  severity?: 'warning';
}

/** A tool a check names, and where below the check's value the name is written. */
export interface ToolNamed {
  pointer: string;
  name: string;
}

/** The request a case sent, in the services' own shape (messages with every field, params as given). */
export type CheckRequest = ChatRequest;

/**
 * What a check reads of the case's baseline entry: a baseline file's case
 * (stored/baseline/types.ts, BaselineCase) is one.
 */
interface CheckBaseline {
  status: 'pass' | 'fail' | 'error';
  model: string | null;
  finish_reason: string | null;
  usage: Usage | null;
  content: string | null;
}

/**
 * What a check sees of one sample: the answer, the request that asked for it (to judge a
 * call against what was declared), and the case's baseline entry — for a check whose
 * `usesBaseline` says so (baselines are held during a run only for those); null otherwise or without one.
 */
export interface CheckContext {
  completion: Completion;
  request: CheckRequest;
  baseline: CheckBaseline | null;
  /** What the sample measured besides the answer (`max_latency_ms`, `max_cost` read it). */
  measured: SampleMeasures;
  /** A tool loop's steps and calls (`trajectory`, `max_steps`, `no_repeated_call` read it); absent for one request. */
  conversation?: ConversationView;
}

/**
 * A sample's latency (ms, the attempt that answered: retry waits never count) and cost (USD:
 * the service's `usage.cost`, else its tokens at the config's `prices:`; null when neither says).
 */
interface SampleMeasures {
  /** Null for a stored sample that recorded none. */
  latency_ms: number | null;
  cost: number | null;
}

/**
 * One check type: everything the suite loader, the validator, the runner and the shipped
 * JSON Schema know of it. Adding a check is one module in `kinds/` and one line in CHECKS.
 */
export interface CheckDefinition<V> {
  /** JSON Schema of the value under `- <type>:`; schemas/suite.schema.json holds exactly these (`npm run build` writes them). */
  schema: Record<string, unknown>;
  /** The schema-valid YAML value as the expectation's value. */
  parse(value: unknown): V;
  /** What the schema cannot say about a value (a regex that does not compile); `where` names it. */
  problems?(value: unknown, where: string, options: SuiteCheckOptions): CheckProblem[];
  /**
   * The tools the value names, each at a JSON pointer below it (read defensively: the value
   * may have failed the schema). The loader refuses a name the case's request does not
   * declare: a call can only be of a declared tool, so the check could never fail or never pass.
   */
  toolNames?(value: unknown): ToolNamed[];
  /** True when `run` (or the runner, for a judge) reads the case's baseline: the run then holds the suite's baseline. */
  usesBaseline?(value: V): boolean;
  /** Evaluates one sample. Without it the runner evaluates the check itself (judge: it calls a service). */
  run?(value: V, context: CheckContext): CheckResult;
}

/** Every check type by its name in `expect:`: the unions, lists and schema are derived from it. */
export const CHECKS = {
  contains,
  not_contains: notContains,
  icontains,
  equals,
  regex,
  finish_reason: finishReason,
  json_schema: jsonSchema,
  max_completion_tokens: maxCompletionTokens,
  max_latency_ms: maxLatencyMs,
  max_cost: maxCost,
  non_empty: nonEmpty,
  tool_call: toolCall,
  no_tool_call: noToolCall,
  tool_calls_valid: toolCallsValid,
  trajectory,
  max_steps: maxSteps,
  no_repeated_call: noRepeatedCall,
  judge,
} as const;

export type CheckType = keyof typeof CHECKS;
type ValueOf<K extends CheckType> = (typeof CHECKS)[K] extends CheckDefinition<infer V> ? V : never;

/** One `expect:` item, parsed from `- contains: 30 days` into `{ type, value }`. */
export type Expectation = { [K in CheckType]: { type: K; value: ValueOf<K> } }[CheckType];

export const CHECK_TYPES = Object.keys(CHECKS) as CheckType[];

export function isCheckType(name: string): name is CheckType {
  return Object.hasOwn(CHECKS, name);
}

export interface CheckResult {
  type: CheckType;
  pass: boolean;
  message: string;
  /** A judge check's call: the concrete judge model, its usage and its verdict. */
  judge?: JudgeCall;
}
