import { detach } from '../util/detach.js';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { ajv2020Library } from '../util/lazy.js';
import type { CheckType, Expectation, JudgeSpec, StringCheckType } from '../types.js';

const STRING_CHECKS: readonly StringCheckType[] = [
  'contains',
  'not_contains',
  'icontains',
  'equals',
  'regex',
  'finish_reason',
];

// Checks compile json_schema expectations with ajv's 2020-12 dialect; compile the same
// way here so a schema that validates now also compiles at run time.
let userSchemaAjv: Ajv2020 | undefined;

/** Turns a schema-valid `expect:` item (`{contains: '30 days'}`) into `{type, value}`. */
export function toExpectation(item: Record<string, unknown>): Expectation {
  const [type, value] = Object.entries(item)[0] as [CheckType, unknown];
  if ((STRING_CHECKS as readonly string[]).includes(type)) {
    return { type: type as StringCheckType, value: detach(value as string) };
  }
  if (type === 'json_schema') return { type, value: value as Record<string, unknown> };
  if (type === 'max_completion_tokens') return { type, value: value as number };
  if (type === 'judge') return { type, value: { ...(value as JudgeSpec) } };
  return { type: 'non_empty', value: value as boolean };
}

/**
 * Why a `regex` value would not compile, or null. Accepts the two forms checks accept:
 * a bare pattern, or `/pattern/flags`.
 */
export function regexProblem(value: string): string | null {
  const literal = /^\/(.+)\/([a-z]*)$/s.exec(value);
  try {
    if (literal) new RegExp(literal[1] ?? '', literal[2]);
    else new RegExp(value);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

// Compiling is milliseconds per schema; suites repeat the same schema across cases.
const verdicts = new Map<string, string | null>();
const MAX_REMEMBERED = 256;

/** Why a `json_schema` value is not a schema ajv can compile, or null. */
export function jsonSchemaProblem(schema: Record<string, unknown>): string | null {
  const key = JSON.stringify(schema);
  const known = verdicts.get(key);
  if (known !== undefined) return known;
  // addUsedSchema false: a user schema's $id must not leak into the next compile.
  userSchemaAjv ??= new (ajv2020Library().Ajv2020)({ allErrors: true, addUsedSchema: false, logger: false });
  let problem: string | null = null;
  try {
    userSchemaAjv.compile(schema);
  } catch (error) {
    problem = error instanceof Error ? error.message : String(error);
  }
  if (verdicts.size >= MAX_REMEMBERED) verdicts.clear();
  verdicts.set(key, problem);
  return problem;
}
