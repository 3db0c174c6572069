import { recordedBaselineProblem } from '../record/baseline.js';
import type { Baseline } from '../types.js';

const STATUSES = new Set(['pass', 'fail', 'error']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

const isStringOrNull = (v: unknown): boolean => v === null || typeof v === 'string';

/** What is wrong with one case entry, or null when it has the shape the differ relies on. */
function caseProblem(c: unknown): string | null {
  if (!isRecord(c)) return 'is not an object';
  if (typeof c.status !== 'string' || !STATUSES.has(c.status)) return 'has no status pass, fail or error';
  if (typeof c.requested_model !== 'string') return 'has no requested_model';
  for (const field of ['model', 'finish_reason', 'content', 'error_kind'] as const) {
    if (!isStringOrNull(c[field])) return `has a ${field} that is neither a string nor null`;
  }
  if (c.usage !== null && !isRecord(c.usage)) return 'has a usage that is neither an object nor null';
  if (!Array.isArray(c.checks)) return 'has no checks list';
  if (c.samples !== undefined && !(isRecord(c.samples) && typeof c.samples.pass === 'number')) {
    return 'has malformed samples';
  }
  return recordedBaselineProblem(c);
}

/** Checks a parsed baseline file; the error names the field, for a message that says what to fix. */
export function validateBaseline(json: unknown): { value: Baseline } | { error: string } {
  if (!isRecord(json)) return { error: 'is not a JSON object' };
  if (json.schema_version !== 1) {
    return {
      error: `has schema_version ${JSON.stringify(json.schema_version)}; this driftcheck reads version 1`,
    };
  }
  for (const field of ['suite', 'service', 'model', 'source_run'] as const) {
    if (typeof json[field] !== 'string') return { error: `has no string field "${field}"` };
  }
  if (!isRecord(json.cases)) return { error: 'has no "cases" object' };
  for (const [id, c] of Object.entries(json.cases)) {
    const problem = caseProblem(c);
    if (problem !== null) return { error: `case "${id}" ${problem}` };
  }
  // The fields the differ and serializer rely on are checked above; the rest is carried as read.
  return { value: json as unknown as Baseline };
}
