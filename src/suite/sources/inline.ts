import type { SourceLocation } from '../../util/errors.js';
import type { Row } from './types.js';

/**
 * The inline source: each item under a suite's `cases:` is a row that is already a case
 * (the suite schema checked it where it is written), located at its item.
 */
export function inlineRows(cases: unknown[], where: (pointer: string) => SourceLocation): Row[] {
  return cases.map((values, i) => ({
    values: values as Record<string, unknown>,
    location: where(`/cases/${i}`),
  }));
}
