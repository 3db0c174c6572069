import { canonicalJson } from '../util/json-compare.js';
import type { SimAgentFault } from '../suite/types.js';
import type { ChatMessage } from './answer.js';
import { PromptValues } from './prompt-values.js';
import { isObject } from './schema-walk.js';
import { schemaValue } from './schema-value.js';
import type { SimTool, ToolRequest } from './tool-request.js';
import { hash } from './words.js';

/** A call the model makes next: a declared tool's name and its arguments (JSON text). */
export interface NextCall {
  name: string;
  arguments: string;
}

/**
 * The model's move once tools have answered: more calls, or the text answer — from the
 * results (`read`), or from the prompt alone, the results unread.
 */
export type AgentMove =
  { kind: 'calls'; calls: NextCall[]; repeated: boolean } | { kind: 'answer'; read: boolean };

export interface AgentInputs {
  request: ToolRequest;
  /** The conversation; it ends with `tool` messages. */
  messages: readonly ChatMessage[];
  /** The last user message's text (what arguments are written from, as for a first call). */
  prompt: string;
  /** The tool-loop faults that hit this request (directive and the provider's standing traits). */
  faults: ReadonlySet<SimAgentFault>;
  /** A reasoning model's details for a turn of calls (reasoningOf); null for other models. */
  reasoning: ((calls: readonly NextCall[]) => ReasoningDetail[]) | null;
}

/**
 * The simulated model's side of a tool loop, after tool results (README, "The embedded
 * simulator"), in this order:
 *
 * 1. `drop_reasoning` (a reasoning model): the assistant turn before the results came back
 *    without the `reasoning_details` the simulator sent with it → the model has lost the
 *    thread: a text answer from the prompt alone, no more calls.
 * 2. `loop`: the calls of the assistant turn before the results again, same names and
 *    arguments.
 * 3. Chaining: a result of this turn (a `tool` message since the last user message) whose
 *    JSON is an object holding a value for a required parameter of another declared tool
 *    (the same property name in the result and in that tool's `parameters`; "another": not
 *    the tool that produced the result) leads to a call of that tool: its arguments written
 *    from the prompt as for a first call, then every property the result names set to the
 *    result's value. Results in order, tools in declaration order; a call already in the
 *    conversation (same tool, same arguments) is not made again, so each (tool, arguments)
 *    is called once; with `parallel_tool_calls: false` only the first of a step.
 *    `stop_early` skips this.
 * 4. Otherwise the text answer from the results (`ignore_result`: from the prompt alone).
 */
export function agentMove(t: AgentInputs): AgentMove {
  const turn = t.messages[t.messages.length - trailingResults(t.messages) - 1];
  const sentCalls = turn?.role === 'assistant' ? (turn.toolCalls ?? []) : [];
  if (t.faults.has('drop_reasoning') && t.reasoning !== null && sentCalls.length > 0) {
    const sent = t.reasoning(sentCalls);
    if (turn!.reasoningDetails === undefined || canonicalJson(turn!.reasoningDetails) !== canonicalJson(sent))
      return { kind: 'answer', read: false };
  }
  if (t.faults.has('loop') && sentCalls.length > 0)
    return {
      kind: 'calls',
      calls: sentCalls.map((c) => ({ name: c.name, arguments: c.arguments })),
      repeated: true,
    };
  if (!t.faults.has('stop_early')) {
    const chained = chainedCalls(t);
    if (chained.length > 0)
      return { kind: 'calls', calls: t.request.parallel ? chained : chained.slice(0, 1), repeated: false };
  }
  return { kind: 'answer', read: !t.faults.has('ignore_result') };
}

/** Rule 3: the calls this turn's results lead to, each (tool, arguments) once in the conversation. */
function chainedCalls(t: AgentInputs): NextCall[] {
  const made = new Set<string>();
  const producers = new Map<string, string>();
  for (const m of t.messages)
    for (const c of m.toolCalls ?? []) {
      made.add(callKey(c.name, c.arguments));
      producers.set(c.id, c.name);
    }
  const out: NextCall[] = [];
  for (const result of turnResults(t.messages)) {
    const value = jsonObject(result.content);
    if (value === null) continue;
    const producer = result.toolCallId === undefined ? undefined : producers.get(result.toolCallId);
    for (const tool of t.request.tools) {
      if (tool.name === producer || !requiredOf(tool).some((p) => Object.hasOwn(value, p))) continue;
      const args = argumentsFrom(tool, t.prompt, value);
      const key = callKey(tool.name, args);
      if (made.has(key)) continue;
      made.add(key);
      out.push({ name: tool.name, arguments: args });
    }
  }
  return out;
}

/** The `tool` messages since the last user message: the results of this turn's steps, in order. */
function turnResults(messages: readonly ChatMessage[]): ChatMessage[] {
  let first = messages.length;
  while (first > 0 && messages[first - 1]!.role !== 'user') first--;
  return messages.slice(first).filter((m) => m.role === 'tool');
}

/** A chained call's arguments: written from the prompt, then the result's values by property name. */
function argumentsFrom(tool: SimTool, prompt: string, result: Record<string, unknown>): string {
  const written = schemaValue(tool.parameters, new PromptValues(prompt, `${tool.name} ${tool.description}`));
  const args = isObject(written) ? { ...written } : {};
  const properties = isObject(tool.parameters.properties) ? Object.keys(tool.parameters.properties) : [];
  for (const p of properties) if (Object.hasOwn(result, p)) args[p] = result[p];
  return JSON.stringify(args);
}

function requiredOf(tool: SimTool): string[] {
  const required = tool.parameters.required;
  return Array.isArray(required) ? required.filter((r): r is string => typeof r === 'string') : [];
}

/** A call's identity: its name and its arguments, key order and spacing aside. */
function callKey(name: string, args: string): string {
  let value: unknown;
  try {
    value = JSON.parse(args);
  } catch {
    return `${name}\n${args}`;
  }
  return `${name}\n${canonicalJson(value)}`;
}

function jsonObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

/** How many `tool` messages end a conversation. */
function trailingResults(messages: readonly ChatMessage[]): number {
  let first = messages.length;
  while (first > 0 && messages[first - 1]!.role === 'tool') first--;
  return messages.length - first;
}

/** One entry of a router answer's `reasoning_details` (openrouter.ai docs, use-cases/reasoning-tokens). */
export interface ReasoningDetail {
  type: 'reasoning.text';
  text: string;
  signature: string;
  format: string;
  index: number;
}

/** What a reasoning model says it thinks before a turn of calls, in words. */
function reasoningText(calls: readonly NextCall[]): string {
  const names = [...new Set(calls.map((c) => c.name))].join(', ');
  return `The user's request needs ${names}. I will call it with ${calls.map((c) => c.arguments).join(' and ')} and continue from what it returns.`;
}

/**
 * The `reasoning_details` of a reasoning model's turn of calls: its reasoning text, signed
 * (a digest of the model and the text), so a turn sent back with them can be told from one
 * sent back without them or with them altered.
 */
export function reasoningOf(model: string, calls: readonly NextCall[]): ReasoningDetail[] {
  const text = reasoningText(calls);
  const signature = [1, 2, 3, 4]
    .map((i) => hash(`${i}\n${model}\n${text}`).toString(16).padStart(8, '0'))
    .join('');
  return [{ type: 'reasoning.text', text, signature, format: 'unknown', index: 0 }];
}
