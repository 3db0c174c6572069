import type { Diagnostic } from '../types.js';
import type { YamlMapping } from '../yaml/parse-mapping.js';
import { show } from '../yaml/show.js';
import { aliasHint, isAlias } from './alias.js';
import { CHECKS, type CheckDefinition, isCheckType, type SuiteCheckOptions } from '../checks/registry.js';
import { repeatProblems } from './repeat-limits.js';

/**
 * What the suite schema cannot say: pinned models, unique case ids, regexes and JSON
 * Schemas that compile. Reads defensively — the data may also have failed the schema,
 * and both kinds of problem are reported together.
 */
export function suiteProblems(yaml: YamlMapping, options: SuiteCheckOptions): Diagnostic[] {
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
  const { model, cases } = yaml.data;
  if (typeof model === 'string' && isAlias(model) && !options.allowAlias) {
    at(
      '/model',
      `model ${show(model)} is an alias: it can move to another concrete model between runs, so a baseline would compare answers from different models`,
      aliasHint(model, yaml.file, options.catalog),
    );
  }
  if (!Array.isArray(cases)) return problems;
  problems.push(...repeatProblems(yaml));

  // Case-insensitive: ids end up in file names, and macOS/Windows file names ignore case.
  const first = new Map<string, { id: string; index: number }>();
  cases.forEach((c: unknown, i) => {
    if (!isRecord(c)) return;
    if (typeof c.id === 'string') {
      const earlier = first.get(c.id.toLowerCase());
      if (!earlier) first.set(c.id.toLowerCase(), { id: c.id, index: i });
      else {
        const how = earlier.id === c.id ? '' : ` (differs only in letter case from ${show(earlier.id)})`;
        const line = yaml.locate(`/cases/${earlier.index}/id`).line;
        at(
          `/cases/${i}/id`,
          `duplicate case id ${show(c.id)}${how}, first used on line ${line}`,
          'case ids must be unique within a suite: they key results and baselines; rename one',
        );
      }
    }
    if (!Array.isArray(c.expect)) return;
    c.expect.forEach((item: unknown, j) => {
      if (!isRecord(item)) return;
      const where = `cases[${i}].expect[${j}]`;
      for (const [type, value] of Object.entries(item)) {
        if (!isCheckType(type)) continue;
        const definition = CHECKS[type] as CheckDefinition<unknown>;
        for (const p of definition.problems?.(value, `${where}.${type}`, options) ?? [])
          at(`/cases/${i}/expect/${j}/${type}${p.pointer}`, p.message, p.hint, p.severity);
      }
    });
  });
  return problems;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
