import { describe, expect, it } from 'vitest';
import { makeProject, readSamples, runDirFrom } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';
import { sendJson, startLoopbackService } from './loopback.js';

const ENV = { OPENROUTER_API_KEY: `sk-or-v1-${'4'.repeat(48)}` };

/** A UI tree as the services' structured-output guides write it: each child is the schema itself. */
const UI = `{ type: object, required: [type, label, children], additionalProperties: false, properties: { type: { enum: [div, button, header] }, label: { type: string }, children: { type: array, items: { $ref: "#" } } } }`;

const TREE = { type: 'div', label: 'root', children: [{ type: 'button', label: 'ok', children: [] }] };
const BAD_TREE = { type: 'div', label: 'root', children: [{ type: 'button', label: 7, children: [] }] };

function answer(what: { content: string } | { args: unknown }): string {
  const message =
    'content' in what
      ? { role: 'assistant', content: what.content }
      : {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'c1',
              type: 'function',
              function: { name: 'render', arguments: JSON.stringify(what.args) },
            },
          ],
        };
  return JSON.stringify({
    id: 'gen-1',
    model: 'openai/gpt-4o-mini',
    choices: [{ index: 0, message, finish_reason: 'content' in what ? 'stop' : 'tool_calls' }],
    usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
  });
}

const SUITE = `suite: trees
service: router
model: openai/gpt-4o-mini
params:
  tools:
    - type: function
      function:
        name: render
        parameters: ${UI}
cases:
  - id: structured
    prompt: tree
    params:
      response_format: { type: json_schema, json_schema: { name: ui, strict: true, schema: ${UI} } }
    expect: [{ json_schema: ${UI} }]
  - id: structured-bad
    prompt: bad-tree
    expect: [{ json_schema: ${UI} }]
  - id: tool
    prompt: call
    expect: [{ tool_calls_valid: true }, { tool_call: { name: render, schema: ${UI} } }]
  - id: tool-bad
    prompt: bad-call
    expect: [{ tool_calls_valid: true }]
  # Two schemas with one $id and different meanings: each keeps its own.
  - id: id-object
    prompt: tree
    expect: [{ json_schema: { $id: "https://example.com/node", type: object, properties: { children: { type: array, items: { $ref: "#" } } } } }]
  - id: id-string
    prompt: tree
    expect: [{ json_schema: { $id: "https://example.com/node", type: string } }]
`;

describe('a recursive schema ($ref: "#"), as the services document structured outputs', () => {
  it('compiles for json_schema checks, response_format and tool parameters, and judges trees at every depth', async () => {
    const service = await startLoopbackService((req, res) => {
      const replies: Record<string, string> = {
        tree: answer({ content: JSON.stringify(TREE) }),
        'bad-tree': answer({ content: JSON.stringify(BAD_TREE) }),
        call: answer({ args: TREE }),
        'bad-call': answer({ args: BAD_TREE }),
      };
      sendJson(res, 200, replies[req.prompt] ?? answer({ content: 'unexpected' }));
    });
    const project = await makeProject({
      'driftcheck.config.yaml': `services:
  router: { kind: router, base_url: ${service.url}/api/v1, api_key_env: OPENROUTER_API_KEY, retries: 0 }
`,
      'suites/trees.yaml': SUITE,
    });
    try {
      const validate = await runMain(['validate'], { cwd: project.dir, env: ENV });
      expect(validate.code, validate.stderr).toBe(0);
      const run = await runMain(['run'], { cwd: project.dir, env: ENV });
      expect(run.stderr).not.toMatch(/internal error/);
      expect(run.code, run.stderr).toBe(1);
      const samples = new Map((await readSamples(runDirFrom(run, project.dir))).map((s) => [s.case, s]));
      const status = (id: string) => [id, samples.get(id)?.status];
      expect(['structured', 'tool', 'id-object'].map(status)).toEqual([
        ['structured', 'pass'],
        ['tool', 'pass'],
        ['id-object', 'pass'],
      ]);
      // A child two levels down breaks the schema: found through the recursion.
      expect(samples.get('structured-bad')!.checks[0]!.message).toMatch(
        /does not match the schema: \/children\/0\/label must be string/,
      );
      expect(samples.get('tool-bad')!.tool_calls![0]).toMatchObject({
        invalid: 'schema_mismatch',
        problem: expect.stringMatching(/\/children\/0\/label must be string/),
      });
      // The second schema of the same $id is its own: an object is no string.
      expect(samples.get('id-string')!.checks[0]).toMatchObject({
        pass: false,
        message: expect.stringMatching(/must be string/),
      });
    } finally {
      await service.close();
      await project.cleanup();
    }
  });

  it("lets no schema's $id leak into the next: a $ref to another schema's $id is refused at its line", async () => {
    const project = await makeProject({
      'driftcheck.config.yaml':
        'services:\n  router: { kind: router, base_url: http://127.0.0.1:9/api/v1, api_key_env: OPENROUTER_API_KEY }\n',
      'suites/ids.yaml': `suite: ids
service: router
model: openai/gpt-4o-mini
cases:
  - id: defines
    prompt: a
    expect: [{ json_schema: { $id: "https://example.com/order", type: object, required: [id] } }]
  - id: borrows
    prompt: b
    expect: [{ json_schema: { $ref: "https://example.com/order" } }]
`,
    });
    try {
      const validate = await runMain(['validate'], { cwd: project.dir, env: ENV });
      expect(validate.code, validate.stderr).toBe(2);
      expect(validate.stderr).toMatch(
        /suites\/ids\.yaml:10:\d+: 'cases\[1\]\.expect\[0\]\.json_schema' is not a JSON Schema ajv can compile: can't resolve reference https:\/\/example\.com\/order/,
      );
      expect(validate.stderr).not.toMatch(/suites\/ids\.yaml:7:/);
    } finally {
      await project.cleanup();
    }
  });
});
