import type { Diagnostic } from '../util/errors.js';
import { ajvDiagnostics } from '../yaml/ajv-diagnostics.js';
import { explainId } from './ids.js';
import { isRowProblem, placeholdersOf } from './template.js';
import { caseValidator } from './validate-ajv.js';
import type { YamlMapping } from '../yaml/parse-mapping.js';
import { show } from '../yaml/show.js';
import { aliasHint, isAlias } from '../adapters/alias.js';
import type { SuiteCheckOptions } from '../checks/registry.js';
import { caseProblems, resultFileProblems } from './case-problems.js';
import { isRecord } from '../util/is-record.js';
import { MAX_REPEAT, repeatTooHigh } from './repeat-limits.js';
import { formatOf, TABLE_EXTENSIONS, TABLE_FORMATS } from './sources/index.js';
import {
  type RequestContext,
  requestProblems,
  type SuiteAllowance,
  type ToolsFile,
} from './request-problems.js';

/**
 * What the suite schema cannot say about the suite file itself: a pinned model, a repeat
 * within bounds, tables whose format is known, and each written case's own rules. Rules
 * over all cases, written and generated (unique ids, the sample total), are expand.ts's.
 * Reads defensively — the data may also have failed the schema, and both kinds of
 * problem are reported together.
 */
export function suiteProblems(
  yaml: YamlMapping,
  options: SuiteCheckOptions & {
    toolFiles?: ReadonlyMap<string, ToolsFile>;
    resultFiles?: ReadonlyMap<string, string>;
  },
): Diagnostic[] {
  const problems: Diagnostic[] = [];
  const at = (pointer: string, message: string, hint: string, severity?: 'warning'): void => {
    problems.push({
      file: yaml.file,
      ...yaml.locate(pointer),
      message,
      hint,
      ...(severity ? { severity } : {}),
    });
  };
  const { model, cases, tables, repeat, params } = yaml.data;
  const allow = (Array.isArray(yaml.data.allow) ? yaml.data.allow : []) as SuiteAllowance[];
  for (const p of requestProblems(
    isRecord(params) ? params : undefined,
    null,
    options.toolFiles,
    'params',
    allow,
  ))
    at(`/params${p.pointer}`, p.message, p.hint);
  const request: RequestContext = {
    suite: isRecord(params) ? params : null,
    allow,
    ...(options.toolFiles ? { files: options.toolFiles } : {}),
    ...(options.resultFiles ? { resultFiles: options.resultFiles } : {}),
  };
  for (const p of resultFileProblems(yaml.data.tool_results, 'tool_results', options.resultFiles))
    at(p.pointer, p.message, p.hint);
  if (typeof model === 'string' && isAlias(model) && !options.allowAlias) {
    at(
      '/model',
      `model ${show(model)} is an alias: it can move to another concrete model between runs, so a baseline would compare answers from different models`,
      aliasHint(model, yaml.file, options.catalog),
    );
  }
  if (repeatTooHigh(repeat))
    at(
      '/repeat',
      `'repeat' must be at most ${MAX_REPEAT}, got ${repeat}`,
      `use at most ${MAX_REPEAT}; a pass rate needs tens of samples`,
    );
  if (Array.isArray(tables)) {
    tables.forEach((t: unknown, i) => {
      if (!isRecord(t)) return;
      if (isRecord(t.case)) problems.push(...templateProblems(yaml, i, t.case, options, request));
      if (typeof t.path !== 'string' || t.format !== undefined) return;
      if (formatOf(t.path, undefined) === null) {
        at(
          `/tables/${i}/path`,
          `cannot tell the format of table ${show(t.path)} from its name`,
          `name it ${TABLE_EXTENSIONS}, or add 'format:' (${Object.keys(TABLE_FORMATS).join(' or ')})`,
        );
      }
    });
  }
  if (!Array.isArray(cases)) return problems;
  cases.forEach((c: unknown, i) => {
    for (const p of caseProblems(c, `cases[${i}]`, options, request))
      at(`/cases/${i}${p.pointer}`, p.message, p.hint, p.severity);
  });
  return problems;
}

/**
 * What is wrong with a table's case template whatever its rows hold: the problems of the
 * parts that hold no placeholder (an unknown check, a tool the request does not declare, a
 * regex that does not compile), said once where the template is written. A row reports only
 * what its own values make wrong (isRowProblem). The template's own keys are the suite
 * schema's (case_template).
 */
function templateProblems(
  yaml: YamlMapping,
  i: number,
  template: Record<string, unknown>,
  options: SuiteCheckOptions,
  request: RequestContext,
): Diagnostic[] {
  const root = `/tables/${i}/case`;
  const placeholders = placeholdersOf(template);
  const validate = caseValidator();
  const problems: Diagnostic[] = [];
  if (!validate(template)) {
    const errors = (validate.errors ?? []).map((e) => ({ ...e, instancePath: `${root}${e.instancePath}` }));
    problems.push(
      ...ajvDiagnostics(errors, yaml, {
        rootName: 'the suite',
        patterns: { id: explainId },
        // The template's own keys (at its root) are the suite schema's to say.
        keep: (e) =>
          e.instancePath.startsWith(`${root}/`) &&
          !isRowProblem(placeholders, e.instancePath.slice(root.length), e.keyword),
      }),
    );
  }
  for (const p of caseProblems(template, `tables[${i}].case`, options, request))
    if (!isRowProblem(placeholders, p.pointer))
      problems.push({
        file: yaml.file,
        ...yaml.locate(`${root}${p.pointer}`),
        message: p.message,
        hint: p.hint,
        ...(p.severity ? { severity: p.severity } : {}),
      });
  return problems;
}
