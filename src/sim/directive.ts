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

/** The directive's fields that name a fault, each with the faults it may name. */
const FAULT_FIELDS: Record<string, Readonly<Record<string, true>>> = {
  fault: FAULTS,
  tool_fault: TOOL_FAULTS,
  agent_fault: AGENT_FAULTS,
  stream_fault: STREAM_FAULTS,
};

const NUMBER_FIELDS = {
  delay_ms: 600_000,
  retry_after_s: 3600,
  fail_times: 1_000_000,
  pass_rate: 1,
  tool_fault_rate: 1,
  agent_fault_rate: 1,
  stream_fault_rate: 1,
  stall_ms: 600_000,
  tokens_per_s: 100_000,
} as const;
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
      Object.hasOwn(NUMBER_FIELDS, key) && value !== '' && !Number.isNaN(Number(value))
        ? Number(value)
        : value;
  }
  return out;
}

/** What is wrong with a directive object, or null when it is valid. */
function directiveProblem(d: Record<string, unknown>): string | null {
  for (const [key, value] of Object.entries(d)) {
    const faults = Object.hasOwn(FAULT_FIELDS, key) ? FAULT_FIELDS[key] : undefined;
    if (faults !== undefined) {
      if (typeof value !== 'string' || !Object.hasOwn(faults, value)) {
        return `unknown ${key} ${JSON.stringify(value)}; expected one of ${Object.keys(faults).join(', ')}.`;
      }
    } else if (
      key === 'reply' ||
      key === 'finish_reason' ||
      key === 'fail_reply' ||
      key === 'provider' ||
      key === 'fingerprint'
    ) {
      if (typeof value !== 'string') return `${key} must be a string.`;
    } else if (Object.hasOwn(NUMBER_FIELDS, key)) {
      const max = NUMBER_FIELDS[key as keyof typeof NUMBER_FIELDS];
      const whole = key === 'fail_times' || key === 'stall_ms';
      // A rate of 0 would never finish an answer.
      const positive = key === 'tokens_per_s';
      if (
        typeof value !== 'number' ||
        !Number.isFinite(value) ||
        value < 0 ||
        (positive && value === 0) ||
        value > max ||
        (whole && !Number.isInteger(value))
      ) {
        return positive
          ? `${key} must be a number above 0, at most ${max}.`
          : `${key} must be a ${whole ? 'whole ' : ''}number between 0 and ${max}.`;
      }
    } else {
      return `unknown field "${key}"; expected fault, reply, finish_reason, delay_ms, retry_after_s, fail_times, pass_rate, fail_reply, provider, fingerprint, tool_fault, tool_fault_rate, agent_fault, agent_fault_rate, stream_fault, stream_fault_rate, stall_ms or tokens_per_s.`;
    }
  }
  return null;
}
