import { show } from '../yaml/show.js';
import type { SuiteCheckOptions } from './registry.js';
import { aliasHint, isAlias } from '../adapters/alias.js';

/** A problem of one `judge:` expectation, relative to it (`pointer` under the judge node). */
export interface JudgeProblem {
  pointer: string;
  message: string;
  hint: string;
}

/**
 * What the schema cannot say about a `judge:`: it must ask something (a rubric, equivalence
 * to the baseline, or both), and its model must be pinned like the suite's — a judge that
 * moves between runs makes its verdicts incomparable. Reads defensively (schema errors too).
 */
export function judgeProblems(
  judge: Record<string, unknown>,
  where: string,
  options: SuiteCheckOptions,
): JudgeProblem[] {
  const problems: JudgeProblem[] = [];
  const { model, rubric, equivalent_to_baseline: equivalent } = judge;
  if (typeof model === 'string' && isAlias(model) && !options.allowAlias) {
    problems.push({
      pointer: '/model',
      message: `'${where}.model' ${show(model)} is an alias: the judge could change between runs, and its verdicts with it`,
      hint: aliasHint(model, null, options.catalog),
    });
  }
  if (rubric === undefined && equivalent !== true) {
    problems.push({
      pointer: '',
      message: `'${where}' asks the judge nothing`,
      hint: "add 'rubric: …' (what the answer must do), 'equivalent_to_baseline: true', or both",
    });
  }
  return problems;
}
