import type { SimAgentFault, SimDirective, SimFault, SimStreamFault, SimToolFault } from '../suite/types.js';
import type { ChatMessage } from './answer.js';
import { SIM_DIRECTIVE_HEADER } from './protocol.js';

/** Every fault the simulator knows; a Record so a new SimFault cannot be forgotten here. */
const FAULTS: Record<SimFault, true> = {
  auth: true,
  permission: true,
  insufficient_credit: true,
  budget_exceeded: true,
  depleted: true,
  routing: true,
  rate_limited: true,
  invalid_model: true,
  body_error: true,
  empty_choices: true,
  empty_content: true,
  timeout: true,
  network: true,
  bad_response: true,
  server_error: true,
  length: true,
  refusal: true,
  content_filter: true,
  reasoning_exhausted: true,
};

/** Every tool-calling fault; a Record for the same reason. */
const TOOL_FAULTS: Record<SimToolFault, true> = {
  invalid_json: true,
  unknown_tool: true,
  schema_mismatch: true,
  no_call: true,
  parallel_calls: true,
  ignore_tools: true,
  ignore_response_format: true,
};

/** Every tool-loop fault; a Record for the same reason. */
const AGENT_FAULTS: Record<SimAgentFault, true> = {
  loop: true,
  ignore_result: true,
  stop_early: true,
  reorder: true,
  drop_reasoning: true,
};

/** Every stream fault; a Record for the same reason. */
const STREAM_FAULTS: Record<SimStreamFault, true> = {
  slow_first_token: true,
  stall: true,
  cut: true,
  error_after_content: true,
  keepalive: true,
  no_usage: true,
  split_utf8: true,
};

/**
 * How a directive field is checked: a fault name (one of `faults`), a string, or a number from
 * 0 (or, `above0`, from just above it) to `max`, a `whole` one where it counts something.
 */
type FieldRule =
  | { kind: 'fault'; faults: Readonly<Record<string, true>> }
  | { kind: 'string' }
  | { kind: 'number'; max: number; whole?: true; above0?: true };

const oneOf = (faults: Readonly<Record<string, true>>): FieldRule => ({ kind: 'fault', faults });
const STRING: FieldRule = { kind: 'string' };
const upTo = (max: number, traits: { whole?: true; above0?: true } = {}): FieldRule => ({
  kind: 'number',
  max,
  ...traits,
});

/** Every directive field and its check, in SimDirective's order; a Record so a new field cannot go unchecked. */
const FIELDS: Record<keyof SimDirective, FieldRule> = {
  fault: oneOf(FAULTS),
  reply: STRING,
  finish_reason: STRING,
  delay_ms: upTo(600_000),
  retry_after_s: upTo(3600),
  fail_times: upTo(1_000_000, { whole: true }),
  pass_rate: upTo(1),
  fail_reply: STRING,
  provider: STRING,
  fingerprint: STRING,
  tool_fault: oneOf(TOOL_FAULTS),
  tool_fault_rate: upTo(1),
  agent_fault: oneOf(AGENT_FAULTS),
  agent_fault_rate: upTo(1),
  stream_fault: oneOf(STREAM_FAULTS),
  stream_fault_rate: upTo(1),
  stall_ms: upTo(600_000, { whole: true }),
  // A rate of 0 would never finish an answer.
  tokens_per_s: upTo(100_000, { above0: true }),
};

/** The field names as the unknown-field message lists them: `a, b or c`. */
const FIELD_LIST = (() => {
  const names = Object.keys(FIELDS);
  return `${names.slice(0, -1).join(', ')} or ${names.at(-1)!}`;
})();

/** A field's rule, looked up as an own key (an inherited name such as "constructor" is no field). */
function ruleOf(key: string): FieldRule | undefined {
  return Object.hasOwn(FIELDS, key) ? FIELDS[key as keyof SimDirective] : undefined;
}

const MARKER = /\s*\[sim:([^\]]*)\]\s*/g;

export type DirectiveRead =
  { ok: true; directive: SimDirective | null; messages: ChatMessage[] } | { ok: false; message: string };

/**
 * The directive for one request: the `x-driftcheck-sim` header's JSON merged over any
 * `[sim:key=value,…]` markers in the messages. Markers are stripped from the returned
 * messages so the answer never sees them.
 */
export function readDirective(header: string | undefined, messages: ChatMessage[]): DirectiveRead {
  let fromMarkers: Record<string, unknown> = {};
  let clean = messages;
  if (messages.some((m) => m.content.includes('[sim:'))) {
    clean = messages.map((m) => {
      if (!m.content.includes('[sim:')) return m;
      for (const match of m.content.matchAll(MARKER))
        fromMarkers = { ...fromMarkers, ...parseMarker(match[1]!) };
      return { ...m, content: m.content.replace(MARKER, ' ').trim() };
    });
  }
  let fromHeader: unknown = {};
  if (header !== undefined && header.trim() !== '') {
    try {
      fromHeader = JSON.parse(header);
    } catch {
      return {
        ok: false,
        message: `Invalid simulator directive: the ${SIM_DIRECTIVE_HEADER} header is not valid JSON.`,
      };
    }
    if (typeof fromHeader !== 'object' || fromHeader === null || Array.isArray(fromHeader)) {
      return {
        ok: false,
        message: `Invalid simulator directive: the ${SIM_DIRECTIVE_HEADER} header must be a JSON object.`,
      };
    }
  }
  const merged = { ...fromMarkers, ...(fromHeader as Record<string, unknown>) };
  const problem = directiveProblem(merged);
  if (problem) return { ok: false, message: `Invalid simulator directive: ${problem}` };
  const directive = Object.keys(merged).length > 0 ? (merged as SimDirective) : null;
  return { ok: true, directive, messages: clean };
}

/** `fault=rate_limited,retry_after_s=2` → { fault: 'rate_limited', retry_after_s: 2 }. */
function parseMarker(body: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const pair of body.split(',')) {
    const eq = pair.indexOf('=');
    const key = (eq < 0 ? pair : pair.slice(0, eq)).trim();
    if (key === '') continue;
    const value = eq < 0 ? '' : pair.slice(eq + 1).trim();
    out[key] =
      ruleOf(key)?.kind === 'number' && value !== '' && !Number.isNaN(Number(value)) ? Number(value) : value;
  }
  return out;
}

/** What is wrong with a directive object, or null when it is valid. */
function directiveProblem(d: Record<string, unknown>): string | null {
  for (const [key, value] of Object.entries(d)) {
    const rule = ruleOf(key);
    if (rule === undefined) return `unknown field "${key}"; expected ${FIELD_LIST}.`;
    if (rule.kind === 'fault') {
      if (typeof value !== 'string' || !Object.hasOwn(rule.faults, value))
        return `unknown ${key} ${JSON.stringify(value)}; expected one of ${Object.keys(rule.faults).join(', ')}.`;
    } else if (rule.kind === 'string') {
      if (typeof value !== 'string') return `${key} must be a string.`;
    } else if (
      typeof value !== 'number' ||
      !Number.isFinite(value) ||
      value < 0 ||
      (rule.above0 && value === 0) ||
      value > rule.max ||
      (rule.whole && !Number.isInteger(value))
    ) {
      return rule.above0
        ? `${key} must be a number above 0, at most ${rule.max}.`
        : `${key} must be a ${rule.whole ? 'whole ' : ''}number between 0 and ${rule.max}.`;
    }
  }
  return null;
}
