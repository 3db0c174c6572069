import { CHECKS, type CheckDefinition, isCheckType, type SuiteCheckOptions } from '../checks/registry.js';
import { MAX_REPEAT, repeatTooHigh } from './repeat-limits.js';
import { declaredTools, type RequestContext, requestProblems, undeclaredTool } from './request-problems.js';
import { isRecord } from '../util/is-record.js';
import { escapePointer } from '../yaml/locate.js';

/** A problem of one case, at a JSON Pointer relative to the case (`/expect/1/regex`). */
export interface CaseProblem {
  pointer: string;
  message: string;
  hint: string;
  /** A check's warning (an undocumented finish_reason): shown, never fatal. */
  severity?: 'warning';
}

/**
 * What the case schema cannot say about one case: each check's own rules (a regex or JSON
 * Schema that compiles, a judge that is pinned, a tool name its request declares), a repeat
 * within bounds, and its request over the suite's (tools, tool_choice, response_format: see
 * requestProblems). The one
 * definition for written and generated cases; `where` names the case in messages
 * (`cases[2]`; empty for a generated case, named by its row). Reads defensively: the case may also have failed the schema.
 */
export function caseProblems(
  c: unknown,
  where: string,
  options: SuiteCheckOptions,
  request: RequestContext = { suite: null },
): CaseProblem[] {
  if (!isRecord(c)) return [];
  const problems: CaseProblem[] = [];
  const named = (rest: string) => (where === '' ? rest : `${where}.${rest}`);
  if (isRecord(c.params))
    for (const p of requestProblems(c.params, request.suite, request.files, named('params'), request.allow))
      problems.push({ ...p, pointer: `/params${p.pointer}` });
  if (repeatTooHigh(c.repeat)) {
    problems.push({
      pointer: '/repeat',
      message: `'${named('repeat')}' must be at most ${MAX_REPEAT}, got ${c.repeat}`,
      hint: `use at most ${MAX_REPEAT}; a pass rate needs tens of samples`,
    });
  }
  // The tools the case's request declares (null: a tools file not read yet, checked once it is).
  const declared = declaredTools(isRecord(c.params) ? c.params : undefined, request.suite, request.files);
  const expectations = (list: unknown, at: string, name: string, turn: boolean) => {
    if (!Array.isArray(list)) return;
    list.forEach((item: unknown, j) => {
      if (!isRecord(item)) return;
      for (const [type, value] of Object.entries(item)) {
        if (!isCheckType(type)) continue;
        const definition = CHECKS[type] as CheckDefinition<unknown>;
        const where = named(`${name}[${j}].${type}`);
        if (turn && type === 'judge')
          problems.push({
            pointer: `${at}/${j}/judge`,
            message: `'${where}': a judge is not run on a later turn's reply yet`,
            hint: "judge the first reply (the case's own expect), or check this turn with contains, regex or json_schema",
          });
        for (const p of definition.problems?.(value, where, options) ?? [])
          problems.push({ ...p, pointer: `${at}/${j}/${type}${p.pointer}` });
        // A judge's own params are a request's, held to the same rules (both caps, a fallback list, …).
        if (type === 'judge' && isRecord(value) && isRecord(value.params))
          for (const p of requestProblems(
            value.params,
            null,
            request.files,
            `${where}.params`,
            request.allow,
          ))
            problems.push({ ...p, pointer: `${at}/${j}/judge/params${p.pointer}` });
        if (declared === null) continue;
        for (const { pointer, name: tool } of definition.toolNames?.(value) ?? []) {
          const undeclared = undeclaredTool(tool, declared, `'${where}'`, "the case's request");
          if (undeclared) problems.push({ pointer: `${at}/${j}/${type}${pointer}`, ...undeclared });
        }
      }
    });
  };
  problems.push(...resultFileProblems(c.tool_results, named('tool_results'), request.resultFiles));
  expectations(c.expect, '/expect', 'expect', false);
  if (Array.isArray(c.turns))
    c.turns.forEach((t: unknown, i) => {
      if (isRecord(t)) expectations(t.expect, `/turns/${i}/expect`, `turns[${i}].expect`, true);
    });
  return problems;
}

/**
 * A tool result `file:` the suite did not read: one named by a placeholder, or by a table
 * row's value. Result files are read once, with the suite, from the paths written in it.
 */
export function resultFileProblems(
  results: unknown,
  named: string,
  read: ReadonlyMap<string, string> | undefined,
): CaseProblem[] {
  if (!isRecord(results)) return [];
  const problems: CaseProblem[] = [];
  for (const [tool, given] of Object.entries(results)) {
    const rules: unknown[] = Array.isArray(given) ? given : [given];
    rules.forEach((rule, i) => {
      const file = isRecord(rule) ? rule.file : undefined;
      if (typeof file !== 'string') return;
      const at = Array.isArray(given) ? `/${i}` : '';
      const where = `'${named}.${tool}${Array.isArray(given) ? `[${i}]` : ''}.file'`;
      if (file.includes('{{') || (read !== undefined && !read.has(file)))
        problems.push({
          pointer: `/tool_results/${escapePointer(tool)}${at}/file`,
          message: `${where} names a result file by a placeholder or a row's value (${JSON.stringify(file)}); result files are read once, with the suite`,
          hint: "write the file's path in the suite itself, or give the row's result as text with result: '{{column}}'",
        });
    });
  }
  return problems;
}
