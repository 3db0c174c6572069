import type { RequestParams, SourceLocation } from '../types.js';
import { draft7Problem } from '../tools/draft7.js';
import { show } from '../yaml/show.js';
import type { CaseProblem } from './case-problems.js';
import { isRecord } from '../util/is-record.js';

/** A tools file a suite names in `params.tools`, read and checked: its tools. */
export interface ToolsFile {
  /** The file as messages name it. */
  file: string;
  tools: unknown[];
  location: SourceLocation;
}

/** What a case's request problems are judged with: the suite's params, and the tools files read (absent: not yet read). */
export interface RequestContext {
  suite: RequestParams | null;
  files?: ReadonlyMap<string, ToolsFile>;
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

/** The declared tool names of a `tools` value: a list, a file read, or null when not known yet. */
function toolNames(tools: unknown, files: ReadonlyMap<string, ToolsFile> | undefined): string[] | null {
  const list = typeof tools === 'string' ? files?.get(tools)?.tools : tools;
  if (!Array.isArray(list)) return null;
  const names = list.flatMap((t) => {
    const name = functionOf(t)?.name;
    return typeof name === 'string' ? [name] : [];
  });
  return [...new Set(names)];
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
): CaseProblem[] {
  if (!isRecord(own)) return [];
  const problems: CaseProblem[] = [];
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
  const choice = own.tool_choice ?? inherited?.tool_choice;
  const tools = own.tools ?? inherited?.tools;
  const at = own.tool_choice !== undefined ? '/tool_choice' : '/tools';
  const names = tools === undefined ? [] : toolNames(tools, files);
  const wanted = isRecord(choice) && isRecord(choice.function) ? choice.function.name : undefined;
  if (typeof wanted === 'string' && names !== null && !names.includes(wanted))
    problems.push({
      pointer: at === '/tool_choice' ? '/tool_choice/function/name' : at,
      message: `tool_choice names the tool ${show(wanted)}, which ${named === 'params' ? 'the suite' : `'${named}'`} does not declare${names.length ? ` (declared: ${names.join(', ')})` : ' (no tools)'}`,
      hint: 'name a tool of params.tools, or declare it there',
    });
  if (choice === 'required' && tools === undefined)
    problems.push({
      pointer: at,
      message: `tool_choice is required, but ${named === 'params' ? 'the suite' : `'${named}'`} declares no tools`,
      hint: 'add params.tools, or drop tool_choice',
    });
  return problems;
}

/** Params with a tools file replaced by the tools it holds (the request carries them, not the path). */
export function withTools(
  params: RequestParams,
  files: ReadonlyMap<string, { tools: unknown[] }> | undefined,
): RequestParams {
  if (typeof params.tools !== 'string') return params;
  const file = files?.get(params.tools);
  return file ? { ...params, tools: file.tools } : params;
}
