import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../src/util/errors.js';
import { parseSuite } from '../../src/suite/parse.js';

const suite = (expectYaml: string) => `suite: refunds
service: router
model: openai/gpt-4o-mini
cases:
  - id: refund-window
    prompt: What is the refund window?
    expect:
${expectYaml}
`;

const errorsOf = (text: string, options = {}) =>
  (parseSuite(text, 'refunds.yaml', options).errors ?? []).map(formatDiagnostic).join('\n');

describe('judge expectations in suites', () => {
  it('parse into { type: judge, value }', () => {
    const parsed = parseSuite(
      suite(`      - contains: 30 days
      - judge:
          model: openai/gpt-4o-mini
          service: direct
          rubric: must mention "30 days"
          equivalent_to_baseline: true`),
      'refunds.yaml',
    );
    expect(parsed.errors).toBeUndefined();
    expect(parsed.value!.cases[0]!.expect).toEqual([
      { type: 'contains', value: '30 days' },
      {
        type: 'judge',
        value: {
          model: 'openai/gpt-4o-mini',
          service: 'direct',
          rubric: 'must mention "30 days"',
          equivalent_to_baseline: true,
        },
      },
    ]);
  });

  it.each([
    [
      'a typo in a judge key',
      `      - judge: { model: openai/gpt-4o-mini, rubrik: be polite }`,
      /refunds\.yaml:8:\d+: unknown key 'rubrik' in cases\[0\]\.expect\[0\]\.judge\n {2}→ did you mean 'rubric'\?/,
    ],
    [
      'no model',
      `      - judge: { rubric: be polite }`,
      /missing required key 'model' in cases\[0\]\.expect\[0\]\.judge/,
    ],
    [
      'a judge that asks nothing',
      `      - judge: { model: openai/gpt-4o-mini, equivalent_to_baseline: false }`,
      /'cases\[0\]\.expect\[0\]\.judge' asks the judge nothing\n {2}→ add 'rubric: …'/,
    ],
    [
      'an alias as judge model',
      `      - judge: { model: ~openai/gpt-mini-latest, rubric: be polite }`,
      /refunds\.yaml:8:\d+: 'cases\[0\]\.expect\[0\]\.judge\.model' '~openai\/gpt-mini-latest' is an alias/,
    ],
    ['a typo in the check name', `      - judgee: { model: m, rubric: x }`, /did you mean 'judge'\?/],
  ])('refuses %s', (_name, yaml, pattern) => {
    expect(errorsOf(suite(yaml))).toMatch(pattern);
  });

  it('accepts an alias judge with allowAlias, like the suite model', () => {
    expect(
      errorsOf(suite(`      - judge: { model: ~openai/gpt-mini-latest, rubric: x }`), { allowAlias: true }),
    ).toBe('');
  });
});
