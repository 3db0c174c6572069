import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADAPTERS } from '../../src/adapters/index.js';
import { makeProject, REPO, runCli, startSimProcess } from '../helpers/cli.js';

const FIXTURES = join(REPO, 'test/fixtures/hostile');
const fixture = (path: string) => readFile(join(FIXTURES, path), 'utf8');

const ENV = {
  OPENROUTER_API_KEY: `sk-or-v1-${'5eed'.repeat(12)}`,
  DIRECT_API_KEY: `sk-${'feed'.repeat(12)}`,
};

/** One problem the CLI must report: where (`file:line:column`), what, and what to do. */
interface Expected {
  at: string;
  message: RegExp;
  hint: RegExp;
}

interface HostileInput {
  name: string;
  /** Project files: path → text or bytes. A config fixture is added unless one is given. */
  files: () => Promise<Record<string, string | Buffer>>;
  expected: Expected[];
}

const suiteHead = (name: string) => `suite: ${name}\nservice: router\nmodel: openai/gpt-4o-mini\n`;

/** 9 levels of 9 aliases each: 387,420,489 strings once expanded. */
function billionLaughs(): string {
  const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i < 9; i++) {
    const [prev, cur] = [String.fromCharCode(96 + i), String.fromCharCode(97 + i)];
    lines.push(`${cur}: &${cur} [${Array(9).fill(`*${prev}`).join(',')}]`);
  }
  return `${suiteHead('laughs')}cases:\n  - id: a\n    prompt: Hello\n${lines.map((l) => `x${l}`).join('\n')}\n`;
}

const INPUTS: HostileInput[] = [
  {
    name: 'malformed YAML (an unterminated quote)',
    files: async () => ({ 'suites/malformed.yaml': await fixture('suites/malformed.yaml') }),
    expected: [
      {
        at: 'suites/malformed.yaml:6:13',
        message: /Missing closing "quote \(the quote opened here is never closed\)/,
        hint: /add the closing "; a " inside the value is written \\"/,
      },
    ],
  },
  {
    name: 'wrong types',
    files: async () => ({ 'suites/wrong-types.yaml': await fixture('suites/wrong-types.yaml') }),
    expected: [
      {
        at: 'suites/wrong-types.yaml:4:23',
        message: /'params.max_tokens' must be an integer, got text/,
        hint: /tokens/,
      },
      {
        at: 'suites/wrong-types.yaml:4:44',
        message: /'params.temperature' must be a number, got text/,
        hint: /temperature/i,
      },
      {
        at: 'suites/wrong-types.yaml:5:9',
        message: /'repeat' must be a whole number ≥ 1 or 'auto', got -1/,
        hint: /times/,
      },
      {
        at: 'suites/wrong-types.yaml:8:13',
        message: /'cases\[0\].prompt' must be text, got a list/,
        hint: /user message/,
      },
      {
        at: 'suites/wrong-types.yaml:9:39',
        message: /max_completion_tokens' must be an integer, got text/,
        hint: /usage/,
      },
    ],
  },
  {
    name: 'unknown keys',
    files: async () => ({ 'suites/unknown-keys.yaml': await fixture('suites/unknown-keys.yaml') }),
    expected: [
      {
        at: 'suites/unknown-keys.yaml:2:1',
        message: /unknown key 'servce'/,
        hint: /did you mean 'service'\?/,
      },
      {
        at: 'suites/unknown-keys.yaml:6:5',
        message: /unknown key 'promt' in cases\[0\]/,
        hint: /did you mean 'prompt'\?/,
      },
      {
        at: 'suites/unknown-keys.yaml:7:5',
        message: /unknown key 'expects'/,
        hint: /did you mean 'expect'\?/,
      },
    ],
  },
  {
    name: 'duplicate case ids (ignoring case)',
    files: async () => ({ 'suites/dup.yaml': await fixture('suites/duplicate-case-ids.yaml') }),
    expected: [
      {
        at: 'suites/dup.yaml:9:5',
        message: /duplicate case id 'Refund-Window'.*first used on line 5/,
        hint: /unique/,
      },
    ],
  },
  {
    name: 'duplicate suite names in two files',
    files: async () => ({
      'suites/first.yaml': await fixture('suites/duplicate-names/first.yaml'),
      'suites/nested/second.yaml': await fixture('suites/duplicate-names/second.yaml'),
    }),
    expected: [
      {
        at: 'suites/first.yaml:1:8',
        message: /suite name 'support' is also used in suites\/nested\/second.yaml:2/,
        hint: /rename one/,
      },
      {
        at: 'suites/nested/second.yaml:2:8',
        message: /suite name 'Support' is also used in suites\/first.yaml:1/,
        hint: /rename one/,
      },
    ],
  },
  {
    name: 'a YAML alias bomb (billion laughs)',
    files: async () => ({ 'suites/laughs.yaml': billionLaughs() }),
    expected: [{ at: 'suites/laughs.yaml:1:1', message: /aliases expand too far/, hint: /fewer anchors/ }],
  },
  {
    name: 'a 6 MiB file',
    files: async () => ({
      'suites/huge.yaml': `${suiteHead('huge')}cases:\n  - id: a\n    prompt: Hello\n${'# padding padding padding padding\n'.repeat((6 * 1024 * 1024) / 34)}`,
    }),
    expected: [
      {
        at: 'suites/huge.yaml',
        message:
          /file is too large: more than the 5 MiB driftcheck reads of a suite \(reading stopped there\)/,
        hint: /split it/,
      },
    ],
  },
  {
    name: "a case id with '../'",
    files: async () => ({ 'suites/traversal.yaml': await fixture('suites/id-traversal.yaml') }),
    expected: [
      {
        at: 'suites/traversal.yaml:5:9',
        message: /'cases\[0\].id' contains '..', which would leave the baselines folder/,
        hint: /ASCII letters \(a-z, A-Z\), digits/,
      },
    ],
  },
  {
    name: 'a suite name that is an absolute path',
    files: async () => ({ 'suites/absolute.yaml': await fixture('suites/id-absolute.yaml') }),
    expected: [
      { at: 'suites/absolute.yaml:1:8', message: /'suite' looks like an absolute path/, hint: /file names/ },
    ],
  },
  {
    name: 'a case id with an escaped NUL ("\\0")',
    files: async () => ({
      'suites/nul-escape.yaml': `${suiteHead('nul')}cases:\n  - id: "a\\0b"\n    prompt: Hello\n`,
    }),
    expected: [
      {
        at: 'suites/nul-escape.yaml:5:9',
        message: /'cases\[0\].id' contains a NUL character/,
        hint: /file names/,
      },
    ],
  },
  {
    name: 'a case id with a raw NUL byte',
    files: async () => ({
      'suites/nul-raw.yaml': `${suiteHead('nul')}cases:\n  - id: a\u0000b\n    prompt: Hello\n`,
    }),
    expected: [
      {
        at: 'suites/nul-raw.yaml',
        message: /binary file \(contains NUL bytes\)/,
        hint: /YAML text file/,
      },
    ],
  },
  {
    name: 'a binary file named .yaml',
    files: async () => ({
      'suites/image.yaml': Buffer.from([
        0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48,
      ]),
    }),
    expected: [{ at: 'suites/image.yaml', message: /binary file/, hint: /YAML text file/ }],
  },
  {
    name: 'a file that is not UTF-8',
    files: async () => ({
      'suites/latin1.yaml': Buffer.from(`${suiteHead('caf\xe9')}cases: []\n`, 'latin1'),
    }),
    expected: [{ at: 'suites/latin1.yaml', message: /not valid UTF-8/, hint: /UTF-8/ }],
  },
  {
    name: 'a config with an unknown service kind',
    files: async () => ({
      'driftcheck.config.yaml': await fixture('config/unknown-kind.yaml'),
      'suites/valid.yaml': await fixture('suites/valid.yaml'),
    }),
    expected: [
      {
        at: 'driftcheck.config.yaml:3:11',
        message: new RegExp(
          `'services\\.router\\.kind' must be one of ${Object.keys(ADAPTERS).join(', ')}; got 'routr'`,
        ),
        hint: /did you mean 'router'\?/,
      },
    ],
  },
  {
    name: 'a config with an unknown key',
    files: async () => ({
      'driftcheck.config.yaml': await fixture('config/unknown-key.yaml'),
      'suites/valid.yaml': await fixture('suites/valid.yaml'),
    }),
    expected: [
      {
        at: 'driftcheck.config.yaml:6:5',
        message: /unknown key 'timeout' in services.router/,
        hint: /did you mean 'timeout_s'\?/,
      },
    ],
  },
  {
    name: 'a suite naming an unconfigured service',
    files: async () => ({ 'suites/unconfigured.yaml': await fixture('suites/unconfigured-service.yaml') }),
    expected: [
      {
        at: 'suites/unconfigured.yaml:2:10',
        message: /service 'routr' is not configured \(did you mean 'router'\?\)/,
        hint: /router/,
      },
    ],
  },
];

let sim: Awaited<ReturnType<typeof startSimProcess>>;
beforeAll(async () => {
  sim = await startSimProcess();
});
afterAll(async () => {
  await sim.stop();
});

/** Each expected problem appears as `file:line:column: message` followed by its `→ hint` line. */
function expectProblems(stderr: string, expected: Expected[]): void {
  for (const e of expected) {
    const line = stderr.split('\n').findIndex((l) => l.includes(`${e.at}: `));
    expect(line, `${e.at} in:\n${stderr}`).toBeGreaterThanOrEqual(0);
    const [head = '', hint = ''] = stderr.split('\n').slice(line, line + 2);
    expect(head).toMatch(e.message);
    expect(hint).toMatch(/^\s+→ /);
    expect(hint).toMatch(e.hint);
  }
}

describe('hostile suites and configs: exit 2, file:line:column and a hint, nothing sent', () => {
  it.each(INPUTS)('$name', async (input) => {
    const files = await input.files();
    const project = await makeProject({
      ...(files['driftcheck.config.yaml']
        ? {}
        : { 'driftcheck.config.yaml': await fixture('config/valid.yaml') }),
    });
    // makeProject writes text; bytes (binary, Latin-1) are written as they are.
    for (const [name, content] of Object.entries(files)) {
      await mkdir(dirname(join(project.dir, name)), { recursive: true });
      await writeFile(join(project.dir, name), content);
    }
    const env = { ...ENV, SIM_URL: sim.url };
    try {
      const commands = [['validate'], ['run'], ['run', '--sim']];
      const results = await Promise.all(commands.map((args) => runCli(args, { cwd: project.dir, env })));
      for (const [i, result] of results.entries()) {
        expect(result.code, `${commands[i]?.join(' ')}:\n${result.stderr}`).toBe(2);
        expectProblems(result.stderr, input.expected);
        expect(result.stderr).not.toMatch(/internal error|\n\s+at /);
        expect(result.stdout + result.stderr).not.toContain(ENV.OPENROUTER_API_KEY);
      }
      expect((await sim.stats()).completions).toBe(0);
      expect(existsSync(join(project.dir, 'reports'))).toBe(false);
    } finally {
      await project.cleanup();
    }
  });

  it('accepts the valid fixtures, so the failures above are the hostile parts', async () => {
    const project = await makeProject({
      'driftcheck.config.yaml': await fixture('config/valid.yaml'),
      'suites/valid.yaml': await fixture('suites/valid.yaml'),
    });
    try {
      const result = await runCli(['validate'], { cwd: project.dir, env: { SIM_URL: sim.url } });
      expect(result.code, result.stderr).toBe(0);
    } finally {
      await project.cleanup();
    }
  });
});
