import { canonicalJson } from '../util/json-compare.js';
import { formatAjvErrors } from '../util/schema-cache.js';
import type { RequestParams } from './messages.js';
import { draft7Validator } from './draft7.js';
import { isRecord } from '../util/is-record.js';
import { MAX_JSON_DEPTH, parseBoundedJson } from '../util/json-depth.js';

/** Why a call is not valid against the declared tools, in the router's three classes. */
type ToolCallInvalid = 'invalid_json' | 'unknown_tool' | 'schema_mismatch';

/** One tool call of an answer, as a sample keeps it. */
export interface ToolCall {
  id: string | null;
  /** The function's name as the model wrote it. */
  name: string;
  /** The arguments as sent: a string holding JSON, which may be invalid. */
  arguments: string;
  /** The arguments parsed; null when they are not JSON. */
  parsed: unknown;
  valid: boolean;
  /** Absent when valid. */
  invalid?: ToolCallInvalid;
  /** What is wrong, in one line (absent when valid). */
  problem?: string;
}

/** A call of a tool loop and the result driftcheck gave it (null: no rule answered it). */
export interface TrajectoryStep {
  /** The request (1-based) whose answer made the call. */
  step: number;
  tool: string;
  /** The arguments as the model wrote them (JSON text, which may be invalid). */
  arguments: string;
  result: string | null;
}

/** What a check sees of a tool loop: how many requests it took, and every call its answers made, in order. */
export interface ConversationView {
  steps: number;
  calls: readonly ToolCall[];
}

/** The functions a request declares, by name, with their parameters schema (undefined: none given). */
/** `get_weather({"city":"Paris"})`, short: how a message names a call. */
export function describeCall(call: Pick<ToolCall, 'name' | 'arguments' | 'parsed'>): string {
  const args = call.parsed !== null ? canonicalJson(call.parsed) : call.arguments;
  const chars = Array.from(args);
  return `${call.name}(${chars.length > 60 ? `${chars.slice(0, 60).join('')}…` : args})`;
}

/** An invalid call and why, as messages say it: `get_weather({}): schema_mismatch: …`. */
export function describeInvalid(call: ToolCall): string {
  return `${describeCall(call)}: ${call.invalid}: ${call.problem ?? ''}`;
}

/** A call's identity: its tool and its arguments (parsed when they parse, key order aside). */
export function callKey(call: Pick<ToolCall, 'name' | 'arguments' | 'parsed'>): string {
  return `${call.name}\u0000${canonicalJson(call.parsed ?? call.arguments)}`;
}

export type DeclaredTools = ReadonlyMap<string, unknown>;

/** The function tools of a request's `tools` (resolved), by name; null when it declares none. */
export function declaredTools(params: RequestParams | null | undefined): DeclaredTools | null {
  const tools = params?.tools;
  if (!Array.isArray(tools) || tools.length === 0) return null;
  const out = new Map<string, unknown>();
  for (const t of tools) {
    const fn = isRecord(t) && isRecord(t.function) ? t.function : null;
    if (fn && typeof fn.name === 'string') out.set(fn.name, fn.parameters);
  }
  return out;
}

/**
 * One call judged as the router judges it: arguments that are not JSON, a name no declared
 * tool has (when tools were declared), or arguments that do not validate against the
 * tool's parameters (JSON Schema draft 7).
 */
function judgeCall(id: string | null, name: string, args: string, declared: DeclaredTools | null): ToolCall {
  // Bounded as every service JSON is: arguments nested past the bound are not read as JSON.
  const read = parseBoundedJson(args);
  const call = { id, name, arguments: args, parsed: 'value' in read ? read.value : null };
  const invalid = (kind: ToolCallInvalid, problem: string): ToolCall => ({
    ...call,
    valid: false,
    invalid: kind,
    problem,
  });
  if (!('value' in read))
    return invalid(
      'invalid_json',
      read.tooDeep
        ? `the arguments nest more than ${MAX_JSON_DEPTH} levels deep; driftcheck reads no deeper`
        : 'the arguments are not JSON',
    );
  if (declared === null) return { ...call, valid: true };
  if (!declared.has(name)) {
    const names = [...declared.keys()].join(', ');
    return invalid('unknown_tool', `no declared tool is named ${JSON.stringify(name)} (declared: ${names})`);
  }
  const schema = declared.get(name);
  if (schema === undefined) return { ...call, valid: true };
  const validate = draft7Validator(schema);
  // A schema that does not compile was refused before the run; read defensively all the same.
  if (!(validate instanceof Function))
    return invalid('schema_mismatch', `the parameters schema: ${validate.error}`);
  if (validate(call.parsed)) return { ...call, valid: true };
  return invalid('schema_mismatch', formatAjvErrors(validate.errors ?? []));
}

/**
 * The tool calls of an answer's message, each judged against the request's tools; null
 * when the message has none (a malformed entry is kept as a call with an empty name).
 */
export function readToolCalls(
  message: Record<string, unknown> | null,
  declared: DeclaredTools | null,
): ToolCall[] | null {
  const list = message?.tool_calls;
  if (!Array.isArray(list) || list.length === 0) return null;
  return list.map((entry) => {
    const c = isRecord(entry) ? entry : {};
    const fn = isRecord(c.function) ? c.function : {};
    // The services send a string; a provider that sends an object is kept as its JSON text.
    const args = typeof fn.arguments === 'string' ? fn.arguments : (JSON.stringify(fn.arguments) ?? '');
    return judgeCall(
      typeof c.id === 'string' ? c.id : null,
      typeof fn.name === 'string' ? fn.name : '',
      args,
      declared,
    );
  });
}
