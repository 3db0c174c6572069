import type { ToolParameter } from './catalog.js';
import { isObject } from './schema-walk.js';

/** One function the request offers the model (`tools[i].function`). */
export interface SimTool {
  name: string;
  description: string;
  /** The JSON Schema of its arguments (`{}` when the tool takes none). */
  parameters: Record<string, unknown>;
  strict: boolean;
}

export type ToolChoice = 'auto' | 'none' | 'required' | { name: string };

/** `response_format`, as the model is asked to shape its content. */
type ResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; name: string; schema: Record<string, unknown> | null; strict: boolean };

/** The tool-calling and structured-output fields of a request, validated. */
export interface ToolRequest {
  tools: SimTool[];
  toolChoice: ToolChoice;
  /** `parallel_tool_calls`: true unless the request says false (OpenAI's and the router's default). */
  parallel: boolean;
  responseFormat: ResponseFormat;
  /** The parameters the request sets (what a provider must support under `require_parameters`). */
  carries: ToolParameter[];
}

/** What a request without these fields asks for. */
export const NO_TOOLS: ToolRequest = {
  tools: [],
  toolChoice: 'auto',
  parallel: true,
  responseFormat: { type: 'text' },
  carries: [],
};

/** A refusal in OpenAI's words, naming the parameter (both services answer it with a 400). */
export interface ToolRequestProblem {
  message: string;
  param: string;
}

// OpenAI's rule for function and schema names.
const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Reads `tools`, `tool_choice`, `parallel_tool_calls` and `response_format` as OpenAI's API
 * validates them (the router validates `tools` too, so it can check calls against them).
 */
export function readToolRequest(b: Record<string, unknown>): ToolRequest | ToolRequestProblem {
  const tools: SimTool[] = [];
  if (b.tools != null) {
    if (!Array.isArray(b.tools))
      return problem(
        'tools',
        `Invalid type for 'tools': expected an array of objects, but got ${kindOf(b.tools)} instead.`,
      );
    if (b.tools.length === 0)
      return problem(
        'tools',
        "Invalid 'tools': empty array. Expected an array with minimum length 1, but got an empty array instead.",
      );
    for (const [i, raw] of b.tools.entries()) {
      const tool = readTool(raw, `tools[${i}]`);
      if ('message' in tool) return tool;
      tools.push(tool);
    }
  }
  const offered = tools.length > 0;
  let toolChoice: ToolChoice = offered ? 'auto' : 'none';
  if (b.tool_choice != null) {
    if (!offered)
      return problem(
        'tool_choice',
        "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.",
      );
    const read = readToolChoice(b.tool_choice, tools);
    if (typeof read === 'object' && 'message' in read) return read;
    toolChoice = read;
  }
  if (b.parallel_tool_calls != null) {
    if (typeof b.parallel_tool_calls !== 'boolean')
      return problem(
        'parallel_tool_calls',
        `Invalid type for 'parallel_tool_calls': expected a boolean, but got ${kindOf(b.parallel_tool_calls)} instead.`,
      );
    if (!offered)
      return problem(
        'parallel_tool_calls',
        "Invalid value for 'parallel_tool_calls': 'parallel_tool_calls' is only allowed when 'tools' are specified.",
      );
  }
  const format = b.response_format == null ? NO_TOOLS.responseFormat : readResponseFormat(b.response_format);
  if ('message' in format) return format;
  const carries = (['tools', 'tool_choice', 'parallel_tool_calls', 'response_format'] as const).filter(
    (p) => b[p] != null,
  );
  return { tools, toolChoice, parallel: b.parallel_tool_calls !== false, responseFormat: format, carries };
}

function readTool(raw: unknown, at: string): SimTool | ToolRequestProblem {
  if (!isObject(raw))
    return problem(at, `Invalid type for '${at}': expected an object, but got ${kindOf(raw)} instead.`);
  if (raw.type !== 'function')
    return problem(
      `${at}.type`,
      `Invalid value: ${JSON.stringify(raw.type ?? null)}. Supported values are: 'function'.`,
    );
  const fn = raw.function;
  if (!isObject(fn)) return problem(`${at}.function`, `Missing required parameter: '${at}.function'.`);
  if (typeof fn.name !== 'string')
    return problem(`${at}.function.name`, `Missing required parameter: '${at}.function.name'.`);
  if (!NAME.test(fn.name))
    return problem(
      `${at}.function.name`,
      `Invalid '${at}.function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$' of at most 64 characters.`,
    );
  if (fn.description != null && typeof fn.description !== 'string')
    return problem(
      `${at}.function.description`,
      `Invalid type for '${at}.function.description': expected a string, but got ${kindOf(fn.description)} instead.`,
    );
  if (fn.strict != null && typeof fn.strict !== 'boolean')
    return problem(
      `${at}.function.strict`,
      `Invalid type for '${at}.function.strict': expected a boolean, but got ${kindOf(fn.strict)} instead.`,
    );
  const schema = readSchema(fn.parameters, `${at}.function.parameters`, `function '${fn.name}'`);
  if ('message' in schema) return schema;
  return {
    name: fn.name,
    description: fn.description ?? '',
    parameters: schema.value ?? {},
    strict: fn.strict === true,
  };
}

/** A function's parameters are an object schema (OpenAI refuses any other root type). */
function readSchema(
  raw: unknown,
  at: string,
  of: string,
): { value: Record<string, unknown> | null } | ToolRequestProblem {
  if (raw == null) return { value: null };
  if (!isObject(raw))
    return problem(at, `Invalid type for '${at}': expected an object, but got ${kindOf(raw)} instead.`);
  if (raw.type !== undefined && raw.type !== 'object')
    return problem(
      at,
      `Invalid schema for ${of}: schema must be a JSON Schema of 'type: "object"', got 'type: ${JSON.stringify(raw.type)}'.`,
    );
  return { value: raw };
}

function readToolChoice(raw: unknown, tools: SimTool[]): ToolChoice | ToolRequestProblem {
  if (raw === 'auto' || raw === 'none' || raw === 'required') return raw;
  if (typeof raw === 'string')
    return problem(
      'tool_choice',
      `Invalid value: '${raw}'. Supported values are: 'none', 'auto', and 'required'.`,
    );
  const name =
    isObject(raw) && raw.type === 'function' && isObject(raw.function) ? raw.function.name : undefined;
  if (typeof name !== 'string')
    return problem(
      'tool_choice',
      'Invalid \'tool_choice\': expected \'none\', \'auto\', \'required\' or {"type": "function", "function": {"name": …}}.',
    );
  if (!tools.some((t) => t.name === name))
    return problem(
      'tool_choice',
      `Invalid 'tool_choice': function '${name}' is not among the 'tools' of this request.`,
    );
  return { name };
}

function readResponseFormat(raw: unknown): ResponseFormat | ToolRequestProblem {
  if (!isObject(raw))
    return problem(
      'response_format',
      `Invalid type for 'response_format': expected an object, but got ${kindOf(raw)} instead.`,
    );
  if (raw.type === 'text' || raw.type === 'json_object') return { type: raw.type };
  if (raw.type !== 'json_schema')
    return problem(
      'response_format.type',
      `Invalid value: ${JSON.stringify(raw.type ?? null)}. Supported values are: 'text', 'json_object', and 'json_schema'.`,
    );
  const js = raw.json_schema;
  if (!isObject(js))
    return problem(
      'response_format.json_schema',
      "Missing required parameter: 'response_format.json_schema'.",
    );
  if (typeof js.name !== 'string' || !NAME.test(js.name))
    return problem(
      'response_format.json_schema.name',
      "Invalid 'response_format.json_schema.name': expected a string that matches the pattern '^[a-zA-Z0-9_-]+$' of at most 64 characters.",
    );
  if (js.strict != null && typeof js.strict !== 'boolean')
    return problem(
      'response_format.json_schema.strict',
      `Invalid type for 'response_format.json_schema.strict': expected a boolean, but got ${kindOf(js.strict)} instead.`,
    );
  if (js.schema != null && !isObject(js.schema))
    return problem(
      'response_format.json_schema.schema',
      `Invalid type for 'response_format.json_schema.schema': expected an object, but got ${kindOf(js.schema)} instead.`,
    );
  return { type: 'json_schema', name: js.name, schema: js.schema ?? null, strict: js.strict === true };
}

function problem(param: string, message: string): ToolRequestProblem {
  return { param, message };
}

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
