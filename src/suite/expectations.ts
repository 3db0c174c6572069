import { CHECKS, type CheckDefinition, type Expectation, isCheckType } from '../checks/registry.js';

/** Turns a schema-valid `expect:` item (`{contains: '30 days'}`) into `{type, value}`, by its check's own parse. */
export function toExpectation(item: Record<string, unknown>): Expectation {
  const [type, value] = Object.entries(item)[0] as [string, unknown];
  if (!isCheckType(type))
    throw new Error(`unknown check type '${type}' (the suite schema should have refused it)`);
  return { type, value: (CHECKS[type] as CheckDefinition<unknown>).parse(value) } as Expectation;
}
