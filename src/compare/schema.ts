import type { JsonSchema } from '../record/field.js';
import { CHANGES } from '../core/words.js';
import { COMPARE_SCHEMA_VERSION } from './types.js';

const STATUSES = ['pass', 'fail', 'error', 'not_run'];
const int = { type: 'integer', minimum: 0 };
const num = { type: 'number' };
const str = { type: 'string' };
const orNull = (schema: JsonSchema): JsonSchema => ({ oneOf: [{ type: 'null' }, schema] });
/** An object with exactly these properties, all required. */
const object = (properties: Record<string, JsonSchema>): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  required: Object.keys(properties),
  properties,
});
const tally = object({ passed: int, sent: int });
/** An object of `object`'s, with these properties besides, each written only where it applies. */
const withOptional = (schema: JsonSchema, optional: Record<string, JsonSchema>): JsonSchema => ({
  ...schema,
  properties: { ...(schema.properties as Record<string, JsonSchema>), ...optional },
});
/** A conversation's trajectory, as report.json's case entry keeps it (src/record/fields/trajectory.ts). */
const trajectory = {
  description:
    "A conversation's trajectory: its requests, and the calls their answers made with the results given (null: no tool_results rule answered it). Absent for a single request.",
  ...object({
    steps: { type: 'integer', minimum: 1 },
    calls: {
      type: 'array',
      items: object({
        step: { type: 'integer', minimum: 1 },
        tool: str,
        arguments: str,
        result: orNull(str),
      }),
    },
  }),
};
const served = { type: 'array', items: object({ name: str, cases: int }) };

/**
 * schemas/compare.schema.json, generated from the Comparison's types and constants (the
 * change kinds, the case statuses) by `npm run build`, like the report schema. Pure.
 */
export function compareSchema(): JsonSchema {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://driftcheck.dev/schemas/compare.schema.json',
    title: 'driftcheck compare.json',
    description:
      'Candidates side by side against a reference (the current baseline, or a run): one row per case, one summary per candidate. Written by `run --models`/`--providers` and `driftcheck compare`.',
    ...object({
      schema_version: { const: COMPARE_SCHEMA_VERSION },
      reference: object({
        kind: { enum: ['baseline', 'run'] },
        label: str,
        run_id: orNull(str),
        dir: orNull(str),
      }),
      candidates: { type: 'array', items: { $ref: '#/$defs/candidate' } },
      cases: { type: 'array', items: { $ref: '#/$defs/row' } },
      skipped_suites: {
        type: 'array',
        items: object({ suite: str, reason: str, candidates: { type: 'array', items: str } }),
      },
      candidates_not_run: {
        description:
          'Candidates of run --models/--providers whose runs were not made (the command was interrupted before them); run --resume of the comparison folder makes them and rebuilds these files.',
        type: 'array',
        items: object({ label: str, run_id: str, reason: str }),
      },
    }),
    $defs: {
      change: { enum: [...CHANGES] },
      status: { enum: STATUSES },
      row: object({
        id: str,
        suite: str,
        case: str,
        reference: withOptional(
          object({
            status: orNull({ $ref: '#/$defs/status' }),
            samples: orNull(tally),
            content: orNull(str),
          }),
          { trajectory: { $ref: '#/$defs/trajectory' } },
        ),
        cells: { type: 'array', items: { $ref: '#/$defs/cell' } },
      }),
      cell: withOptional(
        object({
          change: { $ref: '#/$defs/change' },
          status: orNull({ $ref: '#/$defs/status' }),
          samples: orNull(tally),
          error_kind: orNull(str),
          similarity: orNull({ type: 'number', minimum: 0, maximum: 1 }),
          content: orNull(str),
          model: orNull(str),
          providers: { type: 'array', items: str },
          latency_ms: orNull(num),
          cost: orNull(num),
          note: orNull(str),
        }),
        { trajectory: { $ref: '#/$defs/trajectory' }, ttft_ms: orNull(num) },
      ),
      trajectory,
      candidate: object({
        label: str,
        run_id: str,
        dir: orNull(str),
        model: orNull(str),
        provider: orNull(str),
        exit_code: int,
        run_status: str,
        cases: int,
        passed: int,
        failed: int,
        errored: int,
        not_run: int,
        skipped: int,
        pass_rate: orNull(
          object({
            passed: int,
            total: int,
            rate: { type: 'number', minimum: 0, maximum: 1 },
            low: { type: 'number', minimum: 0, maximum: 1 },
            high: { type: 'number', minimum: 0, maximum: 1 },
          }),
        ),
        changes: object(Object.fromEntries(CHANGES.map((c) => [c, int]))),
        tools: orNull(
          object({
            cases: int,
            answered: int,
            triggered: int,
            valid: int,
            trigger_rate: num,
            valid_rate: orNull(num),
          }),
        ),
        error_kinds: { type: 'object', additionalProperties: int },
        tokens: object({ prompt: int, completion: int, total: int }),
        cost: object({ total: orNull(num), cases_with_cost: int, per_1000_cases: orNull(num) }),
        latency_ms: orNull(object({ p50: num, p95: num, samples: int })),
        ttft_ms: orNull(object({ p50: num, p95: num, samples: int })),
        providers: served,
        models: served,
        unserved: {
          type: 'array',
          items: object({ suite: str, model: str, cases: int, total: int, message: str }),
        },
        pareto: orNull({ type: 'boolean' }),
        verdict: object({
          method: { enum: ['mcnemar', 'sign'] },
          cases: int,
          regressions: int,
          fixes: int,
          p_adjusted: { type: 'number', minimum: 0, maximum: 1 },
          p_better_adjusted: { type: 'number', minimum: 0, maximum: 1 },
          worse: { type: 'boolean' },
          better: { type: 'boolean' },
          cost_change: orNull(num),
          p95_change_ms: orNull(num),
          answered: int,
          could_not_serve: { type: 'boolean' },
          line: str,
        }),
      }),
    },
  };
}
