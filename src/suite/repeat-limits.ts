import { ADAPTIVE_SAMPLING } from '../stats/adaptive.js';
import type { Diagnostic } from '../types.js';
import type { YamlMapping } from '../yaml/parse-mapping.js';

/** Pass rates need tens of samples, not millions; past this a typo (1e9) would exhaust memory planning it. */
export const MAX_REPEAT = 1000;
/** Samples one suite may plan (cases × repeats): a night's run, with room to spare. */
export const MAX_SUITE_SAMPLES = 100_000;

/**
 * `repeat:` values the schema accepts (whole numbers ≥ 1) but no run could finish:
 * each over MAX_REPEAT, and a suite whose cases × repeats pass MAX_SUITE_SAMPLES.
 */
export function repeatProblems(yaml: YamlMapping): Diagnostic[] {
  const problems: Diagnostic[] = [];
  const at = (pointer: string, message: string, hint: string) =>
    problems.push({ file: yaml.file, ...yaml.locate(pointer), message, hint });
  const tooMany = (value: unknown): value is number =>
    typeof value === 'number' && Number.isFinite(value) && value > MAX_REPEAT;
  const hint = `use at most ${MAX_REPEAT}; a pass rate needs tens of samples`;
  const { repeat: suiteRepeat, cases } = yaml.data;
  if (tooMany(suiteRepeat)) at('/repeat', `'repeat' must be at most ${MAX_REPEAT}, got ${suiteRepeat}`, hint);
  if (!Array.isArray(cases)) return problems;
  let samples = 0;
  cases.forEach((c: unknown, i) => {
    const own = typeof c === 'object' && c !== null ? (c as { repeat?: unknown }).repeat : undefined;
    if (tooMany(own))
      at(`/cases/${i}/repeat`, `'cases[${i}].repeat' must be at most ${MAX_REPEAT}, got ${own}`, hint);
    const n = [own, suiteRepeat, 1].find(
      (r) => r === 'auto' || (typeof r === 'number' && Number.isInteger(r) && r >= 1),
    );
    samples += n === 'auto' ? ADAPTIVE_SAMPLING.cap : Math.min(n as number, MAX_REPEAT);
  });
  if (samples > MAX_SUITE_SAMPLES) {
    at(
      '/cases',
      `the suite plans ${samples} samples (cases × repeats); at most ${MAX_SUITE_SAMPLES}`,
      'split it into several suites, or lower repeat',
    );
  }
  return problems;
}
