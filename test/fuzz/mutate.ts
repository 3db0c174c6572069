import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';

/** Every .yaml file under a folder, read once (the seeds that mutations start from). */
export function readYamlTree(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.ya?ml$/.test(e.name))
    .map((e) => join(e.parentPath, e.name))
    .sort()
    .map((file) => readFileSync(file, 'utf8'));
}

/** Text YAML gives meaning to: what a mutation splices in to reach the parser's odd corners. */
const YAML_BITS = [
  ':',
  ': ',
  '- ',
  '? ',
  '#',
  '&a ',
  '*a',
  '<<: *a',
  '!!omap ',
  '!!set ',
  '!!binary ',
  '!!timestamp ',
  '!custom ',
  '{',
  '}',
  '[',
  ']',
  ',',
  '"',
  "'",
  '|',
  '>',
  '---\n',
  '...\n',
  '%YAML 1.1\n---\n',
  '\t',
  '\r',
  '\r\n',
  '\u0000',
  '\uFEFF',
  '\u2028',
  '\ud800',
  '.inf',
  '.nan',
  '-1',
  '1e309',
  '0x1F',
  'null',
  '~',
  'true',
  '2024-01-01',
  '__proto__',
  'constructor',
  '../',
  '/etc/passwd',
  '~a/b-latest',
  ' '.repeat(7),
  '\n',
];

/** Keys of suites and configs, misspelt or swapped by key renames. */
const KEYS = [
  'suite',
  'service',
  'model',
  'params',
  'system',
  'repeat',
  'cases',
  'id',
  'prompt',
  'messages',
  'role',
  'content',
  'expect',
  'contains',
  'regex',
  'json_schema',
  'sim',
  'fault',
  'services',
  'kind',
  'base_url',
  'api_key_env',
  'headers',
  'timeout_s',
  'retries',
  'concurrency',
  'max_tokens',
  'verify_model',
];

type Mutation = (text: string) => string;

const lines = (text: string) => text.split('\n');
const clampIndex = (i: number, length: number) => (length === 0 ? 0 : i % length);

/** One random edit: a byte flip, a line dropped or doubled, indentation changed, a key renamed, YAML spliced in. */
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc
    .record({ at: fc.nat(), ch: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) })
    .map(({ at, ch }): Mutation => (t) => {
      const i = clampIndex(at, t.length);
      return t.slice(0, i) + ch + t.slice(i + 1);
    }),
  fc.nat().map((at): Mutation => (t) => {
    const ls = lines(t);
    ls.splice(clampIndex(at, ls.length), 1);
    return ls.join('\n');
  }),
  fc.nat().map((at): Mutation => (t) => {
    const ls = lines(t);
    const i = clampIndex(at, ls.length);
    ls.splice(i, 0, ls[i] ?? '');
    return ls.join('\n');
  }),
  fc.record({ at: fc.nat(), by: fc.integer({ min: -4, max: 4 }) }).map(({ at, by }): Mutation => (t) => {
    const ls = lines(t);
    const i = clampIndex(at, ls.length);
    const line = ls[i] ?? '';
    ls[i] = by >= 0 ? ' '.repeat(by) + line : line.replace(new RegExp(`^ {0,${-by}}`), '');
    return ls.join('\n');
  }),
  fc
    .record({
      from: fc.constantFrom(...KEYS),
      to: fc.oneof(fc.constantFrom(...KEYS), fc.string({ maxLength: 8 })),
    })
    .map(
      ({ from, to }): Mutation =>
        (t) =>
          t.replace(`${from}:`, `${to}:`),
    ),
  fc.record({ at: fc.nat(), bit: fc.constantFrom(...YAML_BITS) }).map(({ at, bit }): Mutation => (t) => {
    const i = clampIndex(at, t.length + 1);
    return t.slice(0, i) + bit + t.slice(i);
  }),
  fc.record({ a: fc.nat(), b: fc.nat() }).map(({ a, b }): Mutation => (t) => {
    const ls = lines(t);
    const [i, j] = [clampIndex(a, ls.length), clampIndex(b, ls.length)];
    [ls[i], ls[j]] = [ls[j] ?? '', ls[i] ?? ''];
    return ls.join('\n');
  }),
);

/** A seed file with 1–5 mutations applied in turn. */
export function mutated(seeds: string[]): fc.Arbitrary<string> {
  return fc
    .record({ seed: fc.constantFrom(...seeds), edits: fc.array(mutation, { minLength: 1, maxLength: 5 }) })
    .map(({ seed, edits }) => edits.reduce((text, edit) => edit(text), seed));
}

/** Any JS value as YAML text (stringify cannot say everything: fall back to its message). */
export function asYaml(value: unknown): string {
  try {
    return stringify(value) ?? '';
  } catch (error) {
    return String(error);
  }
}

const scalar = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom('~a/b-latest', '../x', '/abs', 'a\u0000b', 'A'.repeat(200), 'router', 'direct'),
);
const value = fc.oneof(
  scalar,
  fc.array(scalar, { maxLength: 3 }),
  fc.dictionary(fc.string(), scalar, { maxKeys: 3 }),
);
const either = <T>(arb: fc.Arbitrary<T>) => fc.oneof(arb, value);

/** Suite-shaped data with every field sometimes right, sometimes of the wrong type. */
export const suiteLike = fc
  .record(
    {
      suite: either(fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,20}$/)),
      service: either(fc.constantFrom('router', 'direct')),
      model: either(fc.constantFrom('openai/gpt-4o-mini', '~anthropic/claude-opus-latest')),
      params: either(
        fc.record({ max_tokens: value, temperature: value, reasoning_effort: value }, { requiredKeys: [] }),
      ),
      system: value,
      repeat: either(fc.integer({ min: -2, max: 5000 })),
      cases: either(
        fc.array(
          fc.record(
            {
              id: either(fc.constantFrom('a', 'A', 'b', 'refund-window')),
              prompt: value,
              messages: either(
                fc.array(
                  fc.record(
                    { role: either(fc.constantFrom('user', 'system', 'bot')), content: value },
                    { requiredKeys: [] },
                  ),
                  { maxLength: 3 },
                ),
              ),
              expect: either(
                fc.array(
                  either(
                    fc.dictionary(
                      fc.constantFrom(
                        'contains',
                        'regex',
                        'json_schema',
                        'non_empty',
                        'max_completion_tokens',
                        'bogus',
                      ),
                      value,
                      { maxKeys: 2 },
                    ),
                  ),
                  { maxLength: 3 },
                ),
              ),
              repeat: value,
              sim: either(
                fc.record(
                  { fault: either(fc.constantFrom('timeout', 'auth', 'nope')), reply: value },
                  { requiredKeys: [] },
                ),
              ),
            },
            { requiredKeys: [] },
          ),
          { maxLength: 4 },
        ),
      ),
    },
    { requiredKeys: [] },
  )
  .map(asYaml);

/** Config-shaped data, likewise. */
export const configLike = fc
  .record(
    {
      services: either(
        fc.dictionary(
          fc.oneof(fc.constantFrom('router', 'direct', 'kimi'), fc.string({ maxLength: 6 })),
          either(
            fc.record(
              {
                kind: either(fc.constantFrom('router', 'direct', 'routr')),
                base_url: either(
                  fc.constantFrom(
                    'https://openrouter.ai/api/v1',
                    'http://127.0.0.1:1/v1',
                    '${BASE}',
                    'http://evil.example/v1',
                    'https://u:p@h/v1',
                    'ftp://x',
                    '${UNSET}/v1',
                  ),
                ),
                api_key_env: either(fc.constantFrom('OPENROUTER_API_KEY', '${K}', 'sk-or-v1-abc', '1BAD')),
                headers: either(
                  fc.dictionary(
                    fc.constantFrom('X-Title', 'Authorization', 'bad header', 'HTTP-Referer'),
                    value,
                    { maxKeys: 2 },
                  ),
                ),
                timeout_s: value,
                retries: value,
                concurrency: value,
                max_tokens: value,
              },
              { requiredKeys: [] },
            ),
          ),
          { maxKeys: 3 },
        ),
      ),
    },
    { requiredKeys: [] },
  )
  .map(asYaml);
