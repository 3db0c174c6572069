import { shapeProblem } from '../shape.js';
import type { Baseline } from './types.js';

/**
 * Checks a parsed baseline file against its shape (stored/schemas.ts, which types every
 * recorded field a baseline stores); the error names the JSON path of the bad field, for a
 * message that says what to fix. The fields the differ and serializer rely on are checked;
 * the rest is carried as read.
 */
export function validateBaseline(json: unknown): { value: Baseline } | { error: string } {
  const version = (json as { schema_version?: unknown } | null)?.schema_version;
  if (json !== null && typeof json === 'object' && !Array.isArray(json) && version !== 1) {
    return { error: `has schema_version ${JSON.stringify(version)}; this driftcheck reads version 1` };
  }
  const problem = shapeProblem('baseline', json);
  return problem === null
    ? { value: json as Baseline }
    : { error: `does not have the expected shape: ${problem}` };
}

/** The head a case, or a batch of cases, is checked under on its own (its real head is checked apart). */
export const STAND_IN_HEAD = { schema_version: 1, suite: 's', service: 's', model: 'm', source_run: 'r' };

/** What is wrong with one case as a baseline would hold it (validateBaseline's words), or null. */
export function baselineCaseProblem(id: string, c: unknown): string | null {
  const checked = validateBaseline({ ...STAND_IN_HEAD, cases: { [id]: c } });
  return 'error' in checked ? checked.error : null;
}
