import { checkJsonSchema, schemaProblem } from '../json-schema.js';
import type { CheckDefinition } from '../registry.js';

/** `json_schema`: Passes when the JSON in the answer validates against the schema. */
export const jsonSchema: CheckDefinition<Record<string, unknown>> = {
  schema: {
    type: 'object',
    title: 'Content is JSON matching a schema',
    description:
      'The answer (or the first JSON value in it, also inside a ```json fence) must parse and validate against this JSON Schema (draft 2020-12).',
    examples: [
      {
        type: 'object',
        required: ['order_id'],
      },
    ],
  },
  parse: (value) => value as Record<string, unknown>,
  problems: (value, where) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
    const problem = schemaProblem(value as Record<string, unknown>);
    if (!problem) return [];
    return [
      {
        pointer: problem.pointer,
        message: `'${where}' is not a JSON Schema ajv can compile: ${problem.message}`,
        hint:
          problem.hint ??
          'fix the schema (draft 2020-12 keywords, e.g. { type: object, required: [order_id] })',
      },
    ];
  },
  run: checkJsonSchema,
};
