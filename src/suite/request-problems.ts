import type { RequestParams } from '../core/messages.js';
import type { SourceLocation } from '../util/errors.js';
import { draft7Problem } from '../core/draft7.js';
import { show } from '../yaml/show.js';
import type { CaseProblem } from './case-problems.js';
import { isRecord } from '../util/is-record.js';
import { didYouMean } from '../util/did-you-mean.js';

/** A tools file a suite names in `params.tools`, read and checked: its tools. */
export interface ToolsFile {
  /** The file as messages name it. */
  file: string;
  tools: unknown[];
  location: SourceLocation;
}

/** What a suite's `allow:` may list: parameters that can break a regression baseline, sent only when allowed. */
export type SuiteAllowance = 'models';

/** What a case's request problems are judged with: the suite's params, and the tools files read (absent: not yet read). */
export interface RequestContext {
  suite: RequestParams | null;
  files?: ReadonlyMap<string, ToolsFile>;
  /** The tool result files the suite names, read (absent: not read yet, checked once they are). */
  resultFiles?: ReadonlyMap<string, string>;
  /** The suite's `allow:` (absent: nothing allowed). */
  allow?: readonly SuiteAllowance[];
}

/**
 * What is wrong with a layer's token caps and reasoning settings: both caps in one layer
 * (which one would count is the service's guess), the router's reasoning with both an effort
 * and a budget (the router refuses it), and a fallback list (`models`) the suite does not allow.
 */
function paramProblems(
  own: Record<string, unknown>,
  named: string,
  allow: readonly SuiteAllowance[],
): CaseProblem[] {
  const problems: CaseProblem[] = [];
  if (own.max_tokens !== undefined && own.max_completion_tokens !== undefined)
    problems.push({
      pointer: '/max_completion_tokens',
      message: `'${named}' sets both max_tokens and max_completion_tokens`,
      hint: 'keep one: max_completion_tokens (it counts reasoning tokens; reasoning models refuse max_tokens), or max_tokens',
    });
  const reasoning = own.reasoning;
  if (isRecord(reasoning) && reasoning.effort !== undefined && reasoning.max_tokens !== undefined)
    problems.push({
      pointer: '/reasoning/max_tokens',
      message: `'${named}.reasoning' sets both effort and max_tokens: the routing service refuses a request with both`,
      hint: 'keep one: effort (how hard it thinks) or max_tokens (a budget of thinking tokens)',
    });
  if (own.models !== undefined && !allow.includes('models'))
    problems.push({
      pointer: '/models',
      message: `'${named}.models' is a fallback list: when the suite's model fails, another model may answer, and its answers would be compared with the baseline's as if they were the suite model's`,
      hint: "remove it and let the case fail as the model does; to send it anyway, add 'allow: [models]' to the suite",
    });
  return problems;
}

const functionOf = (tool: unknown) => (isRecord(tool) && isRecord(tool.function) ? tool.function : null);

/**
 * What is wrong with a list of tools that the schema cannot say: a name declared twice
 * (the service could not tell which was called) or a parameters schema that does not
 * compile under draft 7 (every call would be judged against nothing). Pointers are below the list.
 */
export function toolListProblems(tools: readonly unknown[], named: string): CaseProblem[] {
  const problems: CaseProblem[] = [];
  const first = new Map<string, number>();
  tools.forEach((tool, i) => {
    const fn = functionOf(tool);
    if (!fn) return;
    if (typeof fn.name === 'string') {
      const earlier = first.get(fn.name);
      if (earlier === undefined) first.set(fn.name, i);
      else
        problems.push({
          pointer: `/${i}/function/name`,
          message: `'${named}[${i}]' declares the tool ${show(fn.name)} again (first at ${named}[${earlier}])`,
          hint: 'tool names must be unique in a request: a call names its tool by it; rename or remove one',
        });
    }
    if (fn.parameters === undefined) return;
    const problem = draft7Problem(fn.parameters);
    if (problem)
      problems.push({
        pointer: `/${i}/function/parameters${problem.pointer}`,
        message: `'${named}[${i}].function.parameters' is not a JSON Schema that compiles (draft 7): ${problem.message}`,
        hint:
          problem.hint ??
          'fix the schema, e.g. { type: object, required: [city], properties: { city: { type: string } } }',
      });
  });
  return problems;
}

/** Whether a `tools` value sends no tools: an empty list, or null (on a case: the suite's are dropped). */
function sendsNoTools(tools: unknown): boolean {
  return tools === undefined || tools === null || (Array.isArray(tools) && tools.length === 0);
}

/** The declared tool names of a `tools` value: a list, a file read, none; or null when not known yet. */
function toolNames(tools: unknown, files: ReadonlyMap<string, ToolsFile> | undefined): string[] | null {
  if (sendsNoTools(tools)) return [];
  const list = typeof tools === 'string' ? files?.get(tools)?.tools : tools;
  if (!Array.isArray(list)) return null;
  const names = list.flatMap((t) => {
    const name = functionOf(t)?.name;
    return typeof name === 'string' ? [name] : [];
  });
  return [...new Set(names)];
}

/**
 * The tool names a case's request declares: its own `tools` when it sets them (an empty
 * list or null: none), else the suite's; null while a tools file they name is not read yet.
 */
export function declaredTools(
  own: Record<string, unknown> | undefined,
  inherited: RequestParams | null,
  files: ReadonlyMap<string, ToolsFile> | undefined,
): string[] | null {
  const tools = own?.tools !== undefined ? own.tools : inherited?.tools;
  return toolNames(tools, files);
}

/**
 * What is wrong with naming a tool the request does not declare (a tool_choice, a check's
 * tool name), or null when it declares it: a call can only be of a declared tool, so such a
 * name makes a check that can never fail (`no_tool_call`) or never pass (`tool_call`).
 */
export function undeclaredTool(
  name: string,
  declared: readonly string[],
  what: string,
  request: string,
): Pick<CaseProblem, 'message' | 'hint'> | null {
  if (declared.includes(name)) return null;
  const guess = didYouMean(name, declared);
  return {
    message: `${what} names the tool ${show(name)}, which ${request} does not declare${declared.length ? ` (declared: ${declared.join(', ')})` : ' (no tools)'}`,
    hint: guess
      ? `did you mean '${guess}'?`
      : declared.length
        ? 'name a declared tool, or declare it in params.tools'
        : 'declare it in params.tools',
  };
}

/**
 * What is wrong with one layer of request parameters (the suite's, or a case's over the
 * suite's) that the schema cannot say: its tools (see toolListProblems), a response_format
 * schema that does not compile, and a tool_choice naming a tool the request does not
 * declare. Pointers are below the layer's params; `named` names them (`params`, `cases[2].params`).
 */
export function requestProblems(
  own: Record<string, unknown> | undefined,
  inherited: RequestParams | null,
  files: ReadonlyMap<string, ToolsFile> | undefined,
  named: string,
  allow: readonly SuiteAllowance[] = [],
): CaseProblem[] {
  if (!isRecord(own)) return [];
  const problems: CaseProblem[] = paramProblems(own, named, allow);
  if (Array.isArray(own.tools))
    for (const p of toolListProblems(own.tools, `${named}.tools`))
      problems.push({ ...p, pointer: `/tools${p.pointer}` });
  if (typeof own.tools === 'string' && files !== undefined && !files.has(own.tools))
    problems.push({
      pointer: '/tools',
      message: `'${named}.tools' names the file ${show(own.tools)}, which was not read`,
      hint: 'a tools file is named in the suite (its params, a case or a table template), not chosen by a table row',
    });
  const format = own.response_format;
  if (isRecord(format) && isRecord(format.json_schema) && isRecord(format.json_schema.schema)) {
    const problem = draft7Problem(format.json_schema.schema);
    if (problem)
      problems.push({
        pointer: `/response_format/json_schema/schema${problem.pointer}`,
        message: `'${named}.response_format.json_schema.schema' is not a JSON Schema that compiles: ${problem.message}`,
        hint:
          problem.hint ?? 'fix the schema (draft 7 keywords, e.g. { type: object, required: [order_id] })',
      });
  }
  // A layer that sets neither leaves the choice and the tools as the suite checked them.
  if (own.tool_choice === undefined && own.tools === undefined) return problems;
  // A layer that drops the tools (`tools: []` or null) drops the choice made for them too.
  const dropped = own.tools !== undefined && sendsNoTools(own.tools);
  const choice =
    own.tool_choice !== undefined ? own.tool_choice : dropped ? undefined : inherited?.tool_choice;
  const at = own.tool_choice !== undefined ? '/tool_choice' : '/tools';
  const names = declaredTools(own, inherited, files);
  const request = named === 'params' ? 'the suite' : `'${named}'`;
  const wanted = isRecord(choice) && isRecord(choice.function) ? choice.function.name : undefined;
  const undeclared =
    typeof wanted === 'string' && names !== null
      ? undeclaredTool(wanted, names, 'tool_choice', request)
      : null;
  if (undeclared)
    problems.push({ pointer: at === '/tool_choice' ? '/tool_choice/function/name' : at, ...undeclared });
  if (choice === 'required' && names !== null && names.length === 0)
    problems.push({
      pointer: at,
      message: `tool_choice is required, but ${request} declares no tools`,
      hint: 'add params.tools, or drop tool_choice',
    });
  return problems;
}

/**
 * A case's params over the suite's, key by key, its tools file read in. A case's `tools: []`
 * or `tools: null` sends no tools, and drops the suite's tool_choice and parallel_tool_calls
 * with them (they mean nothing without tools, and the services refuse them); a case's token
 * cap (max_tokens or max_completion_tokens) replaces the suite's under the other name.
 */
export function caseParams(
  suite: RequestParams,
  own: RequestParams,
  files: ReadonlyMap<string, { tools: unknown[] }> | undefined,
): RequestParams {
  const merged: RequestParams = { ...suite, ...own };
  // A case's cap replaces the suite's under either name: never both sent.
  if (own.max_completion_tokens !== undefined && own.max_tokens === undefined) delete merged.max_tokens;
  if (own.max_tokens !== undefined && own.max_completion_tokens === undefined)
    delete merged.max_completion_tokens;
  if (own.tools !== undefined && sendsNoTools(own.tools)) {
    if (own.tool_choice === undefined) delete merged.tool_choice;
    if (own.parallel_tool_calls === undefined) delete merged.parallel_tool_calls;
  }
  return withTools(merged, files);
}

/** Params with a tools file replaced by the tools it holds (the request carries them, not the path), and no tools left out. */
export function withTools(
  params: RequestParams,
  files: ReadonlyMap<string, { tools: unknown[] }> | undefined,
): RequestParams {
  if (params.tools !== undefined && sendsNoTools(params.tools)) {
    // No tools: the request carries no `tools` key at all (the services refuse an empty list).
    const { tools: _, ...rest } = params;
    return rest;
  }
  if (typeof params.tools !== 'string') return params;
  const file = files?.get(params.tools);
  return file ? { ...params, tools: file.tools } : params;
}
