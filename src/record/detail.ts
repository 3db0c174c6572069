import type { DetailRow } from './field.js';

/** A row of every value a case's samples gave (a case-entry list), joined; marked `many` when they disagree. */
export function valuesRow(term: string, values: unknown, many?: DetailRow['mark']): DetailRow {
  const list = Array.isArray(values) ? values.map(String) : [];
  return {
    term,
    text: list.length > 0 ? list.join(', ') : null,
    ...(many && list.length > 1 ? { mark: many } : {}),
  };
}

/** A row of one text of a case entry (none when it has none). */
export function textRow(term: string, text: unknown, mark?: DetailRow['mark']): DetailRow {
  return { term, text: typeof text === 'string' ? text : null, ...(mark ? { mark } : {}) };
}
