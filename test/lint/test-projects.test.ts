import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.js';

// A test file's suffix names its vitest project (vitest.config.ts): unit and cli stay in this
// process, process and browser start something. The suffix must say what the file does, both
// ways: a unit test that spawns slows the inner loop, a process test that spawns nothing pays
// for processes it never starts.
const SPAWNS =
  /from '(?:node:child_process|(?:\.\.\/)+helpers\/(?:open|tool-nights)\.js)'|\b(?:runCli|spawnCli|startSimProcess)\(/;
const BROWSER = /from '(?:\.\.\/)+helpers\/browser\.js'/;
const IN_PROCESS = /\brunMain\(/;

async function testFiles(): Promise<string[]> {
  const entries = await readdir(join(REPO, 'test'), { recursive: true });
  return entries.filter((f) => f.endsWith('.test.ts')).map((f) => join('test', f));
}

function projectOf(file: string): string {
  return /\.(cli|process|browser)\.test\.ts$/.exec(file)?.[1] ?? 'unit';
}

describe('test projects', () => {
  it('each file does what its suffix says', async () => {
    const wrong: string[] = [];
    for (const file of await testFiles()) {
      const text = await readFile(join(REPO, file), 'utf8');
      const project = projectOf(file);
      const does = BROWSER.test(text)
        ? 'browser'
        : SPAWNS.test(text)
          ? 'process'
          : IN_PROCESS.test(text)
            ? 'cli'
            : 'unit';
      // A browser test may start the CLI as well; a cli test may be a module test at heart.
      const fits = project === does || (project === 'cli' && does === 'unit');
      if (!fits) wrong.push(`${file}: named ${project}, does ${does}`);
    }
    expect(wrong).toEqual([]);
  });

  it('npm run lint refuses a unit or cli test that starts the binary, a child process or a browser', async () => {
    const eslint = new ESLint({ cwd: REPO });
    // Written so this file's own text does not read as importing them.
    const from = (module: string) => ` from '${module}';`;
    const code = [
      `import { execFile }${from('node:child_process')}`,
      `import { runCli }${from('../helpers/cli.js')}`,
      `import { launchChromium }${from('../helpers/browser.js')}`,
      'void execFile, runCli, launchChromium;',
      '',
    ].join('\n');
    for (const name of ['test/cli/probe.test.ts', 'test/cli/probe.cli.test.ts']) {
      const [result] = await eslint.lintText(code, { filePath: join(REPO, name) });
      const restricted = result!.messages.filter((m) => m.ruleId === 'no-restricted-imports');
      expect(
        restricted.map((m) => m.line),
        relative(REPO, join(REPO, name)),
      ).toEqual([1, 2, 3]);
    }
    const [allowed] = await eslint.lintText(code, { filePath: join(REPO, 'test/cli/probe.process.test.ts') });
    expect(allowed!.messages.filter((m) => m.ruleId === 'no-restricted-imports')).toEqual([]);
  });
});
