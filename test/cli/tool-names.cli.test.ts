import { describe, expect, it } from 'vitest';
import { makeProject } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';

const TOOLS = [
  '    - { type: function, function: { name: delete_account, parameters: { type: object } } }',
  '    - { type: function, function: { name: get_weather, parameters: { type: object } } }',
];

/** A suite whose params declare TOOLS (or name `tools`), with `cases` after it. */
const suite = (cases: string[], tools: string[] = ['  tools:', ...TOOLS]) =>
  ['suite: support', 'service: router', 'model: openai/gpt-4o-mini', 'params:', ...tools, ...cases, ''].join(
    '\n',
  );

async function validate(files: Record<string, string>, args = ['validate']) {
  const project = await makeProject(files);
  try {
    return await runMain(args, { cwd: project.dir });
  } finally {
    await project.cleanup();
  }
}

describe('a check naming a tool the request does not declare is refused (it could never fail, or never pass)', () => {
  it.each([
    {
      what: 'no_tool_call with a typo',
      check: 'no_tool_call: delete_acount',
      at: '12:23',
      message:
        "'cases[0].expect[0].no_tool_call' names the tool 'delete_acount', which the case's request does not declare (declared: delete_account, get_weather)",
      hint: "did you mean 'delete_account'?",
    },
    {
      what: 'tool_call as a name',
      check: 'tool_call: get_wether',
      at: '12:20',
      message:
        "'cases[0].expect[0].tool_call' names the tool 'get_wether', which the case's request does not declare (declared: delete_account, get_weather)",
      hint: "did you mean 'get_weather'?",
    },
    {
      what: 'tool_call with arguments',
      check: 'tool_call: { name: send_email, arguments: { to: x } }',
      at: '12:28',
      message:
        "'cases[0].expect[0].tool_call' names the tool 'send_email', which the case's request does not declare (declared: delete_account, get_weather)",
      hint: 'name a declared tool, or declare it in params.tools',
    },
    {
      what: 'a parallel call of tool_call',
      check: 'tool_call: { calls: [{ name: get_weather }, { name: delete_acount }] }',
      at: '12:61',
      message:
        "'cases[0].expect[0].tool_call' names the tool 'delete_acount', which the case's request does not declare (declared: delete_account, get_weather)",
      hint: "did you mean 'delete_account'?",
    },
  ])('$what: at file:line:col, with a did-you-mean (exit 2)', async ({ check, at, message, hint }) => {
    const result = await validate({
      'suites/support.yaml': suite([
        'cases:',
        '  - id: a',
        '    prompt: hi',
        '    expect:',
        `      - ${check}`,
      ]),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`driftcheck validate: suites/support.yaml:${at}: ${message}\n  → ${hint}\n`);
  });

  it('checks the names against a tools file the suite names, and `run` refuses before sending anything', async () => {
    const files = {
      'suites/support.yaml': suite(
        ['cases:', '  - id: a', '    prompt: hi', '    expect:', '      - no_tool_call: delete_acount'],
        ['  tools: ../tools/support.json'],
      ),
      'tools/support.json': JSON.stringify({
        tools: [{ type: 'function', function: { name: 'delete_account', parameters: { type: 'object' } } }],
      }),
    };
    const result = await validate(files);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "suites/support.yaml:10:23: 'cases[0].expect[0].no_tool_call' names the tool 'delete_acount', which the case's request does not declare (declared: delete_account)\n  → did you mean 'delete_account'?",
    );
    const run = await validate(files, ['run', '--sim']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("names the tool 'delete_acount'");
    expect(run.stderr).not.toContain('report:');
  });

  it("judges a case by its own tools when it sets them, and one that drops the suite's declares none", async () => {
    const result = await validate({
      'suites/support.yaml': suite([
        'cases:',
        '  - id: own',
        '    prompt: hi',
        '    params: { tools: [{ type: function, function: { name: refund } }] }',
        '    expect: [{ tool_call: refund }, { no_tool_call: get_weather }]',
        '  - id: none',
        '    prompt: hi',
        '    params: { tools: [] }',
        '    expect: [{ no_tool_call: delete_account }]',
      ]),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      [
        "driftcheck validate: suites/support.yaml:12:53: 'cases[0].expect[1].no_tool_call' names the tool 'get_weather', which the case's request does not declare (declared: refund)",
        '  → name a declared tool, or declare it in params.tools',
        "suites/support.yaml:16:30: 'cases[1].expect[0].no_tool_call' names the tool 'delete_account', which the case's request does not declare (no tools)",
        '  → declare it in params.tools',
        '',
      ].join('\n'),
    );
  });

  it("a table's template: a name it writes is refused once, at the template; a name a row gives, at that row", async () => {
    const rows = ['tool', ...Array.from({ length: 30 }, (_, i) => (i === 7 ? 'get_wether' : 'get_weather'))];
    const table = (check: string) => ({
      'suites/support.yaml': suite([
        'tables:',
        '  - path: rows.csv',
        '    case:',
        '      id: "q-{{tool}}-{{n}}"',
        '      prompt: "Use {{tool}}"',
        '      expect:',
        `        - ${check}`,
      ]),
      'suites/rows.csv': `n,${rows[0]}\n${rows
        .slice(1)
        .map((t, i) => `${i},${t}`)
        .join('\n')}\n`,
    });
    const written = await validate(table('no_tool_call: delete_acount'));
    expect(written.code).toBe(2);
    expect(written.stderr).toBe(
      "driftcheck validate: suites/support.yaml:14:25: 'tables[0].case.expect[0].no_tool_call' names the tool 'delete_acount', which the case's request does not declare (declared: delete_account, get_weather)\n  → did you mean 'delete_account'?\n",
    );
    const fromRow = await validate(table('tool_call: "{{tool}}"'));
    expect(fromRow.code).toBe(2);
    expect(fromRow.stderr).toBe(
      "driftcheck validate: suites/rows.csv:9:1: case 'q-get_wether-7' from this row: 'expect[0].tool_call' names the tool 'get_wether', which the case's request does not declare (declared: delete_account, get_weather)\n  → did you mean 'get_weather'?\n",
    );
    const fine = await validate(table('no_tool_call: delete_account'));
    expect([fine.code, fine.stderr]).toEqual([0, '']);
  });

  it('a suite whose checks name declared tools validates', async () => {
    const result = await validate({
      'suites/support.yaml': suite([
        'cases:',
        '  - id: a',
        '    prompt: hi',
        '    expect: [{ no_tool_call: delete_account }, { tool_call: { calls: [{ name: get_weather }] } }]',
      ]),
    });
    expect([result.code, result.stderr]).toEqual([0, '']);
  });
});
