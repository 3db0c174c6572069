import { describe, expect, it } from 'vitest';
import { makeProject, runCli } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';

// The built binary checks users' schemas against their drafts' meta-schemas with validators
// compiled at build time (src/util/meta-schema.ts); run from src, Ajv compiles the
// meta-schemas and checks them itself. Ajv is the referee: both must say the same, word for
// word, of every schema below — broken under draft 7 (a tool's parameters) and under 2020-12
// (a json_schema check), naming a meta-schema neither knows, and valid.
const SUITE = [
  'suite: schemas',
  'service: router',
  'model: openai/gpt-4o-mini',
  'cases:',
  '  - id: tool',
  '    prompt: Weather?',
  '    params:',
  '      tools:',
  '        - type: function',
  '          function: { name: weather, parameters: { type: object, properties: { city: { type: strin } } } }',
  '    expect: [{ non_empty: true }]',
  '  - id: required',
  '    prompt: JSON please',
  '    expect: [{ json_schema: { type: object, required: city } }]',
  '  - id: other-draft',
  '    prompt: JSON please',
  '    expect: [{ json_schema: { $schema: "http://json-schema.org/draft-04/schema#", type: object } }]',
  '  - id: declared',
  '    prompt: JSON please',
  '    expect: [{ json_schema: { $schema: "https://json-schema.org/draft/2020-12/schema", type: object, minProperties: 1 } }]',
  '  - id: fine',
  '    prompt: JSON please',
  '    expect: [{ json_schema: { type: object, properties: { n: { type: integer, minimum: 0 } } } }]',
  '',
].join('\n');

describe('meta-schema checks of users’ schemas, compiled at build time', () => {
  it('say what Ajv says of each schema, from the built binary and from src', async () => {
    const project = await makeProject({
      'driftcheck.config.yaml':
        'services:\n  router: { kind: router, base_url: http://127.0.0.1:9/api/v1, api_key_env: OPENROUTER_API_KEY }\n',
      'suites/schemas.yaml': SUITE,
    });
    try {
      const built = await runCli(['validate', 'suites'], { cwd: project.dir });
      const source = await runMain(['validate', 'suites'], { cwd: project.dir });
      expect(built.code).toBe(2);
      expect(built.stdout).toBe(source.stdout);
      expect(built.stderr).toBe(source.stderr);
      const said = built.stdout + built.stderr;
      expect(said).toContain('must be equal to one of the allowed values');
      expect(said).toContain('must be array');
      expect(said).toContain('no schema with key or ref "http://json-schema.org/draft-04/schema#"');
      expect(said).not.toMatch(/declared|fine/);
    } finally {
      await project.cleanup();
    }
  });
});
