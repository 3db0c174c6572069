import { describe, expect, it } from 'vitest';
import { NOT_EVALUATED, runChecks } from '../../src/checks/run.js';
import { contextOf } from '../helpers/check-context.js';
import type { Expectation } from '../../src/checks/registry.js';
import type { Completion } from '../../src/record/answer.js';
import type { Usage } from '../../src/core/answer.js';

function completion(content: string, extra: Partial<Completion> = {}): Completion {
  const usage: Usage = { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 };
  return { id: 'gen-1', model: 'openai/gpt-4o-mini', content, finish_reason: 'stop', usage, ...extra };
}

type Row = [string, Expectation, Completion, boolean, RegExp];

const rows: Row[] = [
  [
    'contains: present',
    { type: 'contains', value: '30 days' },
    completion('Refunds within 30 days.'),
    true,
    /contains "30 days"/,
  ],
  [
    'contains: absent',
    { type: 'contains', value: '30 days' },
    completion('Two weeks.'),
    false,
    /expected content to contain "30 days", got "Two weeks\."/,
  ],
  [
    'contains: case-sensitive',
    { type: 'contains', value: 'Days' },
    completion('30 days'),
    false,
    /to contain "Days"/,
  ],
  [
    'not_contains: absent',
    { type: 'not_contains', value: 'sorry' },
    completion('Sure thing'),
    true,
    /does not contain "sorry"/,
  ],
  [
    'not_contains: present',
    { type: 'not_contains', value: 'sorry' },
    completion('I am sorry, no.'),
    false,
    /not to contain "sorry", found at "I am sorry, no\."/,
  ],
  [
    'icontains: ASCII',
    { type: 'icontains', value: 'REFUND' },
    completion('your refund'),
    true,
    /ignoring case/,
  ],
  [
    'icontains: German sharp s',
    { type: 'icontains', value: 'STRASSE' },
    completion('Hauptstraße 5'),
    true,
    /ignoring case/,
  ],
  [
    'icontains: Greek final sigma',
    { type: 'icontains', value: 'ΟΔΟΣ' },
    completion('η οδος'),
    true,
    /ignoring case/,
  ],
  [
    'icontains: combining accent vs precomposed',
    { type: 'icontains', value: 'CAFÉ' },
    completion('un cafe\u0301 noir'),
    true,
    /ignoring case/,
  ],
  [
    'icontains: absent',
    { type: 'icontains', value: 'refund' },
    completion('no money back'),
    false,
    /expected content to contain "refund" \(ignoring case\), got "no money back"/,
  ],
  [
    'equals: trims surrounding whitespace',
    { type: 'equals', value: 'yes' },
    completion('  yes\n'),
    true,
    /equals "yes"/,
  ],
  [
    'equals: inner differences count',
    { type: 'equals', value: 'yes' },
    completion('yes.'),
    false,
    /expected content to equal "yes", got "yes\."/,
  ],
  ['equals: case matters', { type: 'equals', value: 'Yes' }, completion('yes'), false, /to equal "Yes"/],
  [
    'regex: bare pattern',
    { type: 'regex', value: '\\d+ days' },
    completion('within 30 days'),
    true,
    /matches \/\\d\+ days\/ at "within 30 days"/,
  ],
  [
    'regex: literal with i flag',
    { type: 'regex', value: '/^REFUND/i' },
    completion('refund approved'),
    true,
    /matches/,
  ],
  [
    'regex: literal without flag is case-sensitive',
    { type: 'regex', value: '/^REFUND/' },
    completion('refund approved'),
    false,
    /expected content to match \/\^REFUND\/, got "refund approved"/,
  ],
  [
    'regex: s flag lets . cross lines',
    { type: 'regex', value: '/a.b/s' },
    completion('a\nb'),
    true,
    /matches/,
  ],
  ['regex: m flag anchors lines', { type: 'regex', value: '/^b$/m' }, completion('a\nb\nc'), true, /matches/],
  ['regex: invalid pattern', { type: 'regex', value: '(' }, completion('x'), false, /invalid regex "\(":/],
  ['regex: invalid flags', { type: 'regex', value: '/x/q' }, completion('x'), false, /invalid regex/],
  [
    'finish_reason: equal',
    { type: 'finish_reason', value: 'stop' },
    completion('x'),
    true,
    /finish_reason is "stop"/,
  ],
  [
    'finish_reason: differs',
    { type: 'finish_reason', value: 'stop' },
    completion('x', { finish_reason: 'length' }),
    false,
    /expected finish_reason "stop", got "length"/,
  ],
  [
    'finish_reason: missing',
    { type: 'finish_reason', value: 'stop' },
    completion('x', { finish_reason: null }),
    false,
    /got none/,
  ],
  [
    'max_completion_tokens: under',
    { type: 'max_completion_tokens', value: 20 },
    completion('x'),
    true,
    /20 completion tokens ≤ 20/,
  ],
  [
    'max_completion_tokens: over',
    { type: 'max_completion_tokens', value: 19 },
    completion('x'),
    false,
    /expected at most 19 completion tokens, got 20/,
  ],
  [
    'max_completion_tokens: usage absent',
    { type: 'max_completion_tokens', value: 50 },
    completion('x', { usage: null }),
    false,
    /no usage/,
  ],
  [
    'max_completion_tokens: completion_tokens absent',
    { type: 'max_completion_tokens', value: 50 },
    completion('x', { usage: { prompt_tokens: 1, completion_tokens: null, total_tokens: 1 } }),
    false,
    /usage had no completion_tokens/,
  ],
  ['non_empty true: text', { type: 'non_empty', value: true }, completion('hi'), true, /not empty/],
  [
    'non_empty true: whitespace only',
    { type: 'non_empty', value: true },
    completion(' \n\t'),
    false,
    /expected non-empty content/,
  ],
  ['non_empty false: blank', { type: 'non_empty', value: false }, completion(''), true, /content is empty/],
  [
    'non_empty false: text',
    { type: 'non_empty', value: false },
    completion('hi'),
    false,
    /expected empty content, got "hi"/,
  ],
];

describe('runChecks', () => {
  it.each(rows)('%s', (_name, expectation, c, pass, message) => {
    const [result] = runChecks([expectation], contextOf(c));
    expect(result).toMatchObject({ type: expectation.type, pass });
    expect(result?.message).toMatch(message);
  });

  it('keeps expect: order and evaluates every check', () => {
    const results = runChecks(
      [
        { type: 'non_empty', value: true },
        { type: 'contains', value: 'nope' },
        { type: 'finish_reason', value: 'stop' },
      ],
      contextOf(completion('hello')),
    );
    expect(results.map((r) => [r.type, r.pass])).toEqual([
      ['non_empty', true],
      ['contains', false],
      ['finish_reason', true],
    ]);
  });

  it('fails every check without evaluating when the call failed', () => {
    const results = runChecks(
      [
        { type: 'non_empty', value: false },
        { type: 'not_contains', value: 'x' },
      ],
      null,
    );
    expect(results).toEqual([
      { type: 'non_empty', pass: false, message: NOT_EVALUATED },
      { type: 'not_contains', pass: false, message: NOT_EVALUATED },
    ]);
  });

  it('truncates quoted content to about 80 characters and keeps it on one line', () => {
    const long = `${'line one\n'.repeat(50)}end`;
    const [result] = runChecks([{ type: 'contains', value: 'absent' }], contextOf(completion(long)));
    expect(result?.message).not.toContain('\n');
    expect(result?.message).toContain('…');
    expect(result?.message.length).toBeLessThan(160);
  });

  it('does not leak regex g-flag state between calls', () => {
    const expectation: Expectation = { type: 'regex', value: '/a/g' };
    const c = completion('a');
    expect(runChecks([expectation], contextOf(c))[0]?.pass).toBe(true);
    expect(runChecks([expectation], contextOf(c))[0]?.pass).toBe(true);
  });
});
