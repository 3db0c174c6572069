import { describe, expect, it } from 'vitest';
import { makeProject, runCli } from '../helpers/cli.js';

const CONFIG =
  'services:\n  router: { kind: router, base_url: http://127.0.0.1:9/api/v1, api_key_env: OPENROUTER_API_KEY }\n';
const HEAD = ['suite: support', 'service: router', 'model: openai/gpt-4o-mini'];
const CASE = ['cases:', '  - id: a', '    prompt: hi'];
const TOOL = '{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}';
const lines = (...parts: string[][]) => `${parts.flat().join('\n')}\n`;
const rows = (n: number) => `n,word\n${Array.from({ length: n }, (_, i) => `${i},w${i}`).join('\n')}\n`;

/** Runs `validate` in a scratch project holding `files` (and a config, so the project is one). */
async function validate(files: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const project = await makeProject({ 'driftcheck.config.yaml': CONFIG, ...files });
  try {
    const result = await runCli(['validate'], { cwd: project.dir });
    return { code: result.code, stderr: result.stderr };
  } finally {
    await project.cleanup();
  }
}

describe('suite and tools file messages name the place and the fix', () => {
  it.each<{ what: string; files: Record<string, string>; code: number; stderr: string }>([
    {
      what: 'a suite whose params.tools is an empty list declares no tools (not "must be array or string, got a list")',
      files: { 'suites/s.yaml': lines(HEAD, ['params:', '  tools: []'], CASE) },
      code: 0,
      stderr: '',
    },
    {
      what: 'a tool_call with an unknown key names the key, with a did-you-mean',
      files: { 'suites/s.yaml': lines(HEAD, CASE, ['    expect: [{ tool_call: { nme: get_weather } }]']) },
      code: 2,
      stderr:
        "driftcheck validate: suites/s.yaml:7:29: unknown key 'nme' in cases[0].expect[0].tool_call\n  → did you mean 'name'?\n",
    },
    {
      what: 'a missing tools file is reported at the key that names it',
      files: {
        'suites/s.yaml': lines(HEAD, CASE, ['    params:', '      tools: ../tools/support.json']),
      },
      code: 2,
      stderr:
        "driftcheck validate: suites/s.yaml:8:14: 'cases[0].params.tools' names the tools file tools/support.json, which cannot be read: no such file or folder\n  → check the path (it is taken from the suite file's folder)\n",
    },
    {
      what: 'a truncated .json tools file gets a JSON syntax error at its line and column',
      files: {
        'suites/s.yaml': lines(HEAD, ['params:', '  tools: ../tools/support.json'], CASE),
        'tools/support.json': `{"tools": [\n  ${TOOL},\n  {"type": "function"`,
      },
      code: 2,
      stderr:
        "driftcheck validate: tools/support.json:3:22: JSON syntax error: Expected ',' or '}' after property value\n  → a .json tools file is JSON: { \"tools\": [ … ] }; check the brackets, quotes and commas up to here (the suite names it at suites/s.yaml:5:10)\n",
    },
    {
      what: "a suite's own error and its tools file's problems are reported in one pass",
      files: {
        'suites/s.yaml': lines(HEAD, ['params:', '  temperatur: 0', '  tools: ../tools/support.json'], CASE),
        'tools/support.json': '{"tools": [{"type": "function", "function": {"nme": "get_weather"}}]}\n',
      },
      code: 2,
      stderr: [
        "driftcheck validate: suites/s.yaml:5:3: unknown key 'temperatur' in params",
        "  → did you mean 'temperature'?",
        "tools/support.json:1:45: missing required key 'name' in tools[0].function",
        "  → add 'name:' — Unique among the request's tools; letters, digits, '_' and '-', at most 64.",
        "tools/support.json:1:46: unknown key 'nme' in tools[0].function",
        "  → did you mean 'name'?",
        '',
      ].join('\n'),
    },
    {
      what: "a typo in a table's template is reported once, at the template (not once a row)",
      files: {
        'suites/s.yaml': lines(HEAD, [
          'tables:',
          '  - path: rows.csv',
          '    case:',
          '      id: "q-{{n}}"',
          '      prompt: "Say {{word}}"',
          '      expect:',
          '        - containz: "{{word}}"',
        ]),
        'suites/rows.csv': rows(25),
      },
      code: 2,
      stderr:
        "driftcheck validate: suites/s.yaml:10:11: unknown key 'containz' in tables[0].case.expect[0]\n  → did you mean 'contains'?\n",
    },
  ])('$what', async ({ files, code, stderr }) => {
    const result = await validate(files);
    expect(result.stderr).toBe(stderr);
    expect(result.code).toBe(code);
  });
});
