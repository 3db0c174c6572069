import { recordedBaselineProblem } from '../record/baseline.js';
import { shapeProblem } from '../stored/shape.js';
import type { Baseline } from '../types.js';

/**
 * Checks a parsed baseline file against its shape (stored/schemas.ts), then each case's
 * recorded fields against their own declarations (src/record); the error names the bad
 * field, for a message that says what to fix. The fields the differ and serializer rely on
 * are checked; the rest is carried as read.
 */
export function validateBaseline(json: unknown): { value: Baseline } | { error: string } {
  const version = (json as { schema_version?: unknown } | null)?.schema_version;
  if (json !== null && typeof json === 'object' && !Array.isArray(json) && version !== 1) {
    return { error: `has schema_version ${JSON.stringify(version)}; this driftcheck reads version 1` };
  }
  const problem = shapeProblem('baseline', json);
  if (problem !== null) return { error: `does not have the expected shape: ${problem}` };
  for (const [id, c] of Object.entries((json as Baseline).cases)) {
    const recorded = recordedBaselineProblem(c as unknown as Record<string, unknown>);
    if (recorded !== null) return { error: `case ${JSON.stringify(id)} ${recorded}` };
  }
  return { value: json as Baseline };
}
