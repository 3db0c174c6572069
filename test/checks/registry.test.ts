import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHECK_TYPES, CHECKS, type CheckDefinition } from '../../src/checks/registry.js';
import { runChecks } from '../../src/checks/run.js';
import { contextOf } from '../helpers/check-context.js';
import { toExpectation } from '../../src/suite/expectations.js';

const schema = JSON.parse(
  readFileSync(new URL('../../schemas/suite.schema.json', import.meta.url), 'utf8'),
) as {
  definitions: { expectation: { properties: Record<string, unknown> } };
};

describe('the check registry', () => {
  it('is what the shipped suite schema lists, fragment for fragment (npm run build writes it)', () => {
    expect(Object.keys(schema.definitions.expectation.properties)).toEqual(CHECK_TYPES);
    for (const type of CHECK_TYPES)
      expect(schema.definitions.expectation.properties[type], type).toEqual(CHECKS[type].schema);
  });

  it.each([
    [{ contains: '30 days' }, 'contains', 'Refunds within 30 days.', true],
    [{ not_contains: 'sorry' }, 'not_contains', 'I am sorry.', false],
    [{ icontains: 'REFUND' }, 'icontains', 'refund', true],
    [{ equals: 'ok' }, 'equals', ' ok\n', true],
    [{ regex: '/^ok$/i' }, 'regex', 'OK', true],
    [{ finish_reason: 'length' }, 'finish_reason', 'x', false],
    [{ json_schema: { type: 'object', required: ['id'] } }, 'json_schema', '{"id": 1}', true],
    [{ max_completion_tokens: 5 }, 'max_completion_tokens', 'x', false],
    [{ non_empty: true }, 'non_empty', '   ', false],
    // contextOf's sample took 120 ms and cost $0.00002.
    [{ max_latency_ms: 100 }, 'max_latency_ms', 'x', false],
    [{ max_latency_ms: 120 }, 'max_latency_ms', 'x', true],
    [{ max_cost: 0.00002 }, 'max_cost', 'x', true],
    [{ max_cost: 0.00001 }, 'max_cost', 'x', false],
  ])('parses %j and runs it through its own module', (item, type, content, pass) => {
    const expectation = toExpectation(item);
    expect(expectation.type).toBe(type);
    const [check] = runChecks(
      [expectation],
      contextOf({
        id: null,
        model: 'm',
        content,
        finish_reason: 'stop',
        usage: { prompt_tokens: 1, completion_tokens: 9, total_tokens: 10 },
      }),
    );
    expect(check).toMatchObject({ type, pass });
  });

  it('leaves judge to the runner: it has no run, and runChecks says so instead of passing it', () => {
    expect((CHECKS.judge as CheckDefinition<unknown>).run).toBeUndefined();
    const [check] = runChecks(
      [toExpectation({ judge: { model: 'openai/gpt-4o-mini', rubric: 'polite' } })],
      contextOf({ id: null, model: 'm', content: 'hi', finish_reason: 'stop', usage: null }),
    );
    expect(check).toMatchObject({ type: 'judge', pass: false });
  });
});
