import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../src/checks/registry.js';

describe('tool_call: a schema that does not compile is named where it is written', () => {
  it.each([
    [{ name: 'get_weather', schema: { type: 'nope' } }, '/schema', "'cases[0].expect[1].tool_call.schema'"],
    [
      { calls: [{ name: 'a' }, { name: 'b', schema: { type: 'nope' } }] },
      '/calls/1/schema',
      "'cases[0].expect[1].tool_call.calls[1].schema'",
    ],
  ])('%j', (value, pointer, named) => {
    const problems = CHECKS.tool_call.problems!(value, 'cases[0].expect[1].tool_call', {});
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ pointer });
    expect(problems[0]!.message).toContain(`${named} is not a JSON Schema that compiles (draft 7)`);
  });

  it('says nothing of a schema that compiles', () => {
    expect(CHECKS.tool_call.problems!({ name: 'a', schema: { type: 'object' } }, 'x', {})).toEqual([]);
  });
});
