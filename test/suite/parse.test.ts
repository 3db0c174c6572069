import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseSuite } from '../../src/suite/parse.js';
import type { Suite } from '../../src/suite/types.js';

const fixture = (name: string) =>
  readFileSync(fileURLToPath(new URL(`../fixtures/suites/${name}`, import.meta.url)), 'utf8');

describe('parseSuite on broken fixtures', () => {
  // [fixture, line, column, message substring, hint substring]
  it.each([
    ['unknown-key.yaml', 7, 5, "unknown key 'expects' in cases[0]", "did you mean 'expect'?"],
    ['root-typo.yaml', 3, 1, "unknown key 'modle'", "did you mean 'model'?"],
    ['root-typo.yaml', 1, 1, "missing required key 'model'", "add 'model:'"],
    ['wrong-type.yaml', 4, 9, "'repeat' must be a whole number ≥ 1 or 'auto', got 'three'", 'How many times'],
    ['missing-cases.yaml', 1, 1, "missing required key 'cases'", "add 'cases:'"],
    ['prompt-and-messages.yaml', 7, 5, "'cases[0]' has both 'prompt' and 'messages'", 'keep exactly one'],
    ['neither-prompt-nor-messages.yaml', 5, 5, "'cases[0]' needs 'prompt' or 'messages'", 'add exactly one'],
    // Reported where the quote opens, not at the end of the file where the parser notices.
    ['yaml-syntax.yaml', 6, 13, 'YAML syntax error: Missing closing "quote', 'add the closing "'],
    ['duplicate-key.yaml', 4, 1, 'YAML syntax error: Map keys must be unique', 'remove one'],
    [
      'duplicate-case-id.yaml',
      9,
      5,
      "duplicate case id 'same', first used on line 5",
      'unique within a suite',
    ],
    ['case-id-traversal.yaml', 5, 9, "'cases[0].id' contains '..'", 'file names'],
    ['case-id-absolute.yaml', 5, 9, "'cases[0].id' looks like an absolute path", 'file names'],
    ['suite-id-nul.yaml', 1, 8, "'suite' contains a NUL character", 'file names'],
    ['suite-id-slash.yaml', 1, 8, "'suite' contains a path separator", 'file names'],
    [
      'alias-model.yaml',
      3,
      8,
      "model '~anthropic/claude-opus-latest' is an alias: it can move to another concrete model between runs",
      'run `driftcheck pin broken/alias-model.yaml` (it writes the model the alias points at today), or name a concrete model',
    ],
    [
      'bad-regex.yaml',
      9,
      16,
      "'cases[0].expect[1].regex' is not a valid regular expression",
      'JavaScript pattern',
    ],
    [
      'bad-json-schema.yaml',
      8,
      22,
      "'cases[0].expect[0].json_schema' is not a JSON Schema ajv can compile",
      'fix the schema',
    ],
    [
      'expect-two-keys.yaml',
      8,
      9,
      'takes exactly 1 key, found 2 (contains, finish_reason)',
      'Exactly one check per item',
    ],
    ['not-a-mapping.yaml', 1, 1, 'a suite must be a YAML mapping', "start with 'suite:'"],
    ['empty.yaml', 1, 1, 'a suite must be a YAML mapping', "start with 'suite:'"],
    ['multi-doc.yaml', 7, 1, 'a suite file holds one YAML document, this one has 2', "remove the '---' line"],
    ['alias-bomb.yaml', 1, 1, 'YAML aliases expand too far', 'fewer anchors'],
    ['bad-fault.yaml', 7, 19, "'cases[0].sim.fault' must be one of auth,", "did you mean 'timeout'?"],
    [
      'negative-tokens.yaml',
      8,
      32,
      "'cases[0].expect[0].max_completion_tokens' must be >= 0, got -1",
      'completion_tokens',
    ],
    [
      'unquoted-number.yaml',
      8,
      19,
      "'cases[0].expect[0].contains' must be text, got an integer",
      'quote the value: "30"',
    ],
    ['empty-cases.yaml', 4, 8, "'cases' needs at least 1 item", 'test cases'],
    [
      'bad-role.yaml',
      7,
      15,
      "'cases[0].messages[0].role' must be one of system, user, assistant, tool; got 'usr'",
      "did you mean 'user'?",
    ],
  ])('%s → %i:%i %s', (name, line, column, message, hint) => {
    const file = `broken/${name}`;
    const result = parseSuite(fixture(file), file);
    expect(result.value).toBeUndefined();
    const found = result.errors?.find((d) => d.message.includes(message));
    expect(found, JSON.stringify(result.errors, null, 2)).toBeDefined();
    expect(found).toMatchObject({ file, line, column });
    expect(found?.hint).toContain(hint);
  });

  it('reports every problem of a file at once, in source order', () => {
    const text = [
      'suite: ../x',
      'service: 3',
      'model: m',
      'cases:',
      '  - id: a',
      '    prompt: p',
      '    expect: [{regex: "("}]',
    ].join('\n');
    const errors = parseSuite(text, 'many.yaml').errors ?? [];
    expect(errors.map((d) => `${d.line}:${d.column}`)).toEqual(['1:8', '2:10', '7:22']);
  });

  it('accepts an alias model when allowAlias is set', () => {
    const result = parseSuite(fixture('broken/alias-model.yaml'), 'a.yaml', { allowAlias: true });
    expect(result.errors).toBeUndefined();
    expect(result.value?.model).toBe('~anthropic/claude-opus-latest');
  });

  it('points at the anchor when a value arrives through an alias', () => {
    const text = [
      'suite: s',
      'service: r',
      'model: m',
      'cases:',
      '  - id: a',
      '    prompt: p',
      '    expect: &e',
      '      - contains: 5',
      '  - id: b',
      '    prompt: q',
      '    expect: *e',
    ].join('\n');
    const errors = parseSuite(text, 'alias.yaml').errors ?? [];
    expect(errors.length).toBeGreaterThan(0);
    for (const e of errors) expect(`${e.line}:${e.column}`).toBe('8:19');
  });
});

describe('parseSuite on valid fixtures', () => {
  it("maps DESIGN.md's example onto Suite", () => {
    const result = parseSuite(fixture('valid/design-example.yaml'), 'suites/refunds.yaml');
    const system = { role: 'system', content: 'You are a support agent for ACME.' } as const;
    const expected: Suite = {
      suite: 'refunds',
      file: 'suites/refunds.yaml',
      service: 'router',
      model: 'openai/gpt-4o-mini',
      params: { max_tokens: 256, temperature: 0 },
      system: 'You are a support agent for ACME.',
      location: { file: 'suites/refunds.yaml', line: 1, column: 8 },
      service_location: { file: 'suites/refunds.yaml', line: 2, column: 10 },
      model_location: { file: 'suites/refunds.yaml', line: 3, column: 8 },
      cases: [
        {
          id: 'refund-window',
          messages: [system, { role: 'user', content: 'What is the refund window?' }],
          expect: [
            { type: 'contains', value: '30 days' },
            { type: 'finish_reason', value: 'stop' },
          ],
          location: { file: 'suites/refunds.yaml', line: 7, column: 5 },
        },
        {
          id: 'order-json',
          messages: [system, { role: 'user', content: 'Return the order as JSON' }],
          expect: [{ type: 'json_schema', value: { type: 'object', required: ['order_id'] } }],
          location: { file: 'suites/refunds.yaml', line: 12, column: 5 },
        },
      ],
    };
    expect(result).toEqual({ value: expected });
  });

  it('maps every optional field, anchors and flow mappings included', () => {
    const suite = parseSuite(fixture('valid/full.yaml'), 'full.yaml').value;
    expect(suite).toBeDefined();
    expect(suite?.params).toEqual({
      max_tokens: 300,
      temperature: 0.2,
      top_p: 0.9,
      seed: 7,
      reasoning_effort: 'low',
    });
    expect(suite?.repeat).toBe(2);
    const [multi, flaky, copied] = suite?.cases ?? [];
    expect(multi?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(multi?.repeat).toBe(5);
    expect(multi?.expect.map((e) => e.type)).toEqual([
      'non_empty',
      'not_contains',
      'icontains',
      'equals',
      'regex',
      'max_completion_tokens',
    ]);
    expect(flaky?.sim).toEqual({ fault: 'rate_limited', fail_times: 2, retry_after_s: 0, delay_ms: 10 });
    expect(flaky?.repeat).toBeUndefined();
    expect(copied?.expect).toEqual([{ type: 'regex', value: '^ok' }]);
    expect(copied?.sim).toEqual({ reply: 'ok', finish_reason: 'length' });
  });
});
