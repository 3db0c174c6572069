import type { SimAgentFault, SimToolFault } from '../suite/types.js';
import { agentMove, type NextCall, type ReasoningDetail } from './agent.js';
import { type ChatMessage, lastUserText } from './answer.js';
import { jsonAnswer } from './json-answer.js';
import { PromptValues } from './prompt-values.js';
import { mismatched } from './schema-mismatch.js';
import { schemaValue } from './schema-value.js';
import { chooseTools } from './tool-choice.js';
import type { SimTool, ToolRequest } from './tool-request.js';
import { keywords } from './words.js';

/** One call in OpenAI's wire shape: `arguments` is a string holding JSON (or, from a faulty provider, not). */
export interface WireToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/**
 * What a turn answers instead of the plain text answer: tool calls, content shaped by
 * `response_format`, or (after tool results) the text answer from the prompt alone, the
 * results unread.
 */
export type ToolTurn =
  { kind: 'calls'; calls: WireToolCall[] } | { kind: 'content'; content: string } | { kind: 'unread' } | null;

export interface TurnInputs {
  /** The request as the serving provider sees it (what it does not support already dropped). */
  request: ToolRequest;
  messages: readonly ChatMessage[];
  /** The directive's tool fault when its coin came up, else undefined. */
  fault: SimToolFault | undefined;
  /** The serving provider's standing share of schema-missing arguments (none under `strict`). */
  mismatchRate: number;
  /** A seeded coin in [0, 1) for this request. */
  coin: () => number;
  callId: () => string;
  /** Wordy models indent a `json_object` answer, as they do JSON in text. */
  wordy: boolean;
  /** The tool-loop faults that hit this request (the directive's and the provider's standing ones). */
  agentFaults: ReadonlySet<SimAgentFault>;
  /** A reasoning model's `reasoning_details` for a turn of calls; null for other models. */
  reasoning: ((calls: readonly NextCall[]) => ReasoningDetail[]) | null;
}

/**
 * The turn of a request with tools or a response format: the calls chooseTools picks, each
 * with arguments written from the prompt (schema-value.ts), or content in the asked format;
 * then the provider's faults. Null when the plain answer stands.
 */
export function planTurn(t: TurnInputs): ToolTurn {
  // The last user message: what the model reads to choose and fill.
  const prompt = lastUserText(t.messages);
  const endsWithResults = t.messages[t.messages.length - 1]?.role === 'tool';
  // After tool results the model plays its side of the loop (agent.ts): more calls, or the answer.
  if (endsWithResults && t.request.toolChoice === 'auto' && t.request.tools.length > 0) {
    const move = agentMove({ ...t, prompt, faults: t.agentFaults });
    if (move.kind === 'calls' && move.repeated)
      return { kind: 'calls', calls: move.calls.map((c) => wire(c.name, c.arguments, t)) };
    if (move.kind === 'calls' && t.fault !== 'no_call') {
      const planned = move.calls.map((c) => ({
        tool: t.request.tools.find((tool) => tool.name === c.name)!,
        value: JSON.parse(c.arguments) as unknown,
      }));
      return { kind: 'calls', calls: reordered(callsOf(planned, t), t) };
    }
    if (move.kind === 'answer' && !move.read && t.request.responseFormat.type === 'text')
      return { kind: 'unread' };
  }
  let chosen = t.fault === 'no_call' ? [] : chooseTools(t.request, prompt, endsWithResults);
  if (chosen.length > 0) {
    if (t.fault === 'parallel_calls' && chosen.length < 2) {
      const more = chooseTools({ ...t.request, parallel: true }, prompt, endsWithResults);
      chosen = more.length >= 2 ? more : [chosen[0]!, chosen[0]!];
    }
    const planned = chosen.map((tool) => ({
      tool,
      value: schemaValue(tool.parameters, new PromptValues(prompt, `${tool.name} ${tool.description}`)),
    }));
    return { kind: 'calls', calls: reordered(callsOf(planned, t), t) };
  }
  const format = t.request.responseFormat;
  if (format.type === 'text') return null;
  let content: string;
  if (format.type === 'json_schema' && format.schema !== null) {
    let value = schemaValue(format.schema, new PromptValues(prompt));
    if (t.fault === 'schema_mismatch' || (!format.strict && t.coin() < t.mismatchRate))
      value = mismatched(value, format.schema) ?? value;
    content = JSON.stringify(value);
  } else content = jsonAnswer(prompt, keywords(prompt), t.wordy);
  return { kind: 'content', content: t.fault === 'invalid_json' ? cutJson(content) : content };
}

function callsOf(planned: readonly { tool: SimTool; value: unknown }[], t: TurnInputs): WireToolCall[] {
  return planned.map(({ tool, value }, i) => {
    let name = tool.name;
    // Faults hit the first call: the router counts a request with any bad call once.
    if (i === 0) {
      const standing = !tool.strict && t.coin() < t.mismatchRate;
      if (t.fault === 'schema_mismatch' || standing) value = mismatched(value, tool.parameters) ?? value;
      // A real failure: the name as the chat template spells it, never a declared one.
      if (t.fault === 'unknown_tool') name = `functions.${tool.name}`;
    }
    const args = JSON.stringify(value);
    return wire(name, i === 0 && t.fault === 'invalid_json' ? cutJson(args) : args, t);
  });
}

function wire(name: string, args: string, t: TurnInputs): WireToolCall {
  return { id: t.callId(), type: 'function' as const, function: { name, arguments: args } };
}

/** `reorder`: parallel calls in reverse order (the ids stay in the order they were given). */
function reordered(calls: WireToolCall[], t: TurnInputs): WireToolCall[] {
  if (!t.agentFaults.has('reorder') || calls.length < 2) return calls;
  return calls.map((c, i) => ({ ...c, function: calls[calls.length - 1 - i]!.function }));
}

/** JSON cut before its last character: `{"city":"Paris"` — what a provider sends when generation stops early. */
function cutJson(json: string): string {
  const cut = json.slice(0, -1);
  try {
    JSON.parse(cut);
  } catch {
    return cut;
  }
  // A number cut short still parses: a stray brace breaks it instead.
  return `${json}}`;
}
