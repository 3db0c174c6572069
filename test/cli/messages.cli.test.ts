import { cp, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, runDirFrom } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';

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
    const result = await runMain(['validate'], { cwd: project.dir });
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

describe('command messages say what is wrong and what to do', () => {
  let project: Awaited<ReturnType<typeof makeProject>>;
  let runDir: string;
  const cli = (args: string[], cwd = project.dir) => runMain(args, { cwd });

  beforeAll(async () => {
    project = await makeProject({
      'driftcheck.config.yaml': CONFIG,
      'suites/s.yaml': lines(HEAD, CASE, ['    expect: [{ non_empty: true }]']),
      'empty/notes.txt': 'not a run\n',
    });
    const run = await cli(['run', '--sim', '--reporter', 'json']);
    expect(run.code, run.stderr).toBe(0);
    runDir = runDirFrom(run, project.dir);
    // A run killed before it wrote its reports: its journal alone.
    await mkdir(join(project.dir, 'killed'));
    await cp(join(runDir, 'results.jsonl'), join(project.dir, 'killed/results.jsonl'));
  }, 60_000);

  afterAll(() => project.cleanup());

  it.each([
    ['run', '--concurrency', '-1', "--concurrency expects a whole number ≥ 1, got '-1'"],
    ['run', '--repeat', '-3', "--repeat expects a whole number ≥ 1, got '-3'"],
    [
      'run',
      '--max-cost',
      '-1',
      "--max-cost expects an amount of US dollars above 0 (for example 0.50), got '-1'",
    ],
    ['run', '--shard', '-1/2', "--shard expects I/N with 1 ≤ I ≤ N (for example 2/4), got '-1/2'"],
    ['list', '--repeat', '-1', "--repeat expects a whole number ≥ 1, got '-1'"],
    ['list', '--shard', '-2/3', "--shard expects I/N with 1 ≤ I ≤ N (for example 2/4), got '-2/3'"],
    ['sim', '--port', '-1', "--port expects a whole number ≥ 0, got '-1'"],
    ['sim', '--latency-ms', '-5', "--latency-ms expects a whole number ≥ 0, got '-5'"],
    ['sim', '--credit-after', '-1', "--credit-after expects a whole number ≥ 0, got '-1'"],
    ['sim', '--budget-after', '-1', "--budget-after expects a whole number ≥ 0, got '-1'"],
    ['sim', '--alias-move-after', '-1', "--alias-move-after expects a whole number ≥ 0, got '-1'"],
    ['sim', '--seed', '-1', "--seed expects a whole number ≥ 0, got '-1'"],
  ])(
    '%s %s %s: our own message naming the flag and what it takes (exit 2)',
    async (command, flag, value, said) => {
      const result = await cli([command, ...(command === 'run' ? ['--sim'] : []), flag, value]);
      expect(result.stderr).toBe(`driftcheck ${command}: ${said}\n`);
      expect(result.code).toBe(2);
    },
  );

  it('a value after a flag that starts with a dash and is no number: the flag, what it takes, how to write it', async () => {
    const result = await cli(['run', '--sim', '--report-dir', '-x']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "driftcheck run: --report-dir takes a value (--report-dir DIR: where run folders go (default reports/)), and what follows it starts with '-'\n  → write --report-dir=VALUE for a value that starts with '-'\n  → run 'driftcheck run --help' for the options\n",
    );
  });

  it('a mistyped subcommand gets a did-you-mean', async () => {
    const baseline = await cli(['baseline', 'acept', runDir]);
    expect(baseline.code).toBe(2);
    expect(baseline.stderr).toBe(
      "driftcheck baseline: unknown subcommand 'acept' of baseline\n  → did you mean 'driftcheck baseline accept'?\nusage: driftcheck baseline accept RUN_DIR [--case ID…]  (RUN_DIR is a folder under reports/, or reports/latest)\n",
    );
    const history = await cli(['history', 'ad', 'history', runDir]);
    expect(history.code).toBe(2);
    expect(history.stderr).toBe(
      "driftcheck history: unknown subcommand 'ad' of history\n  → did you mean 'driftcheck history add'?\nusage: driftcheck history DIR --out FILE.html, or driftcheck history add DIR REPORT_DIR…\n  → driftcheck history --help for the options\n",
    );
  });

  it.each([
    ['diff', ['diff', 'RUN', 'killed']],
    ['baseline accept', ['baseline', 'accept', 'killed']],
    ['history add', ['history', 'add', 'history', 'killed']],
  ])('%s of a folder with a journal but no report.json says how to render it', async (_, args) => {
    const result = await cli(args.map((a) => (a === 'RUN' ? runDir : a)));
    const killed = join(project.dir, 'killed');
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `driftcheck ${args[0]}: ${killed}: no report.json in this run folder\n  → render it from its journal with \`driftcheck report ${killed}\` (or finish the run with \`driftcheck run --resume ${killed}\`)\n`,
    );
  });

  it.each([
    ['diff', ['diff', 'RUN', 'empty']],
    ['baseline accept', ['baseline', 'accept', 'empty']],
    ['compare', ['compare', 'RUN', 'empty']],
  ])('%s of a folder that is not a run folder says so', async (_, args) => {
    const result = await cli(args.map((a) => (a === 'RUN' ? runDir : a)));
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `driftcheck ${args[0]}: ${join(project.dir, 'empty')}: not a run folder: it has no report.json and no journal (results.jsonl)\n  → pass a run folder under reports/ (reports/latest is the newest)\n`,
    );
  });

  it('history add of a folder that does not exist says so', async () => {
    const result = await cli(['history', 'add', 'history', 'reports/nonexistent']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `driftcheck history: ${join(project.dir, 'reports/nonexistent')}: no such folder or file\n  → pass a run folder under reports/ (reports/latest is the newest), or its report.json\n`,
    );
  });

  it('pin of a suite with no alias says there is nothing to pin, exit 0, without a key', async () => {
    const result = await runMain(['pin', 'suites/s.yaml'], { cwd: project.dir, env: {} });
    expect([result.code, result.stdout, result.stderr]).toEqual([
      0,
      'suites/s.yaml: no alias to pin (its model is concrete): nothing to do\n',
      '',
    ]);
  });

  it('outside any project, validate, run and list say no config was found and suggest init', async () => {
    const outside = await makeProject({});
    try {
      for (const command of ['validate', 'run', 'list']) {
        const result = await cli([command], outside.dir);
        expect(result.code, command).toBe(2);
        expect(result.stderr).toBe(
          `driftcheck ${command}: no driftcheck.config.yaml here or in any folder above, and no suites/ folder here: not a driftcheck project\n  → run 'driftcheck init' to start one here (a commented config and an example suite), or give the suite files or folders to use\n`,
        );
      }
      // init into a subfolder: its next steps start by entering it, and they work as printed.
      const init = await cli(['init', 'sub'], outside.dir);
      expect(init.code).toBe(0);
      expect(init.stdout).toContain(
        "next: cd sub                                    # the new project's folder\n      driftcheck run --sim ",
      );
      const run = await cli(['run', '--sim', '--reporter', 'json'], join(outside.dir, 'sub'));
      expect(run.code, run.stderr).toBe(0);
    } finally {
      await outside.cleanup();
    }
  });
});
