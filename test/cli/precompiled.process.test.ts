import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { makeProject, REPO, runCli, runDirFrom } from '../helpers/cli.js';

// The built binary finds the validators `npm run build` compiled (dist/validators/, through
// src/util/validators.ts) from wherever its code lies — bundled into dist/bin/ since
// scripts/bundle.mjs. Were they not found, it would still work, compiling the schemas with
// Ajv at start-up (~200 ms a command): only loading Ajv's compiler tells the two apart. A
// suite with no schema of its own needs no compiler to be validated, run or reported.
const HOOK = join(REPO, 'test/fixtures/hooks/ajv-compiler.mjs');

describe('validators compiled at build time, found by the built binary', () => {
  it('validate, run --sim and report of a suite without schemas of its own never load Ajv’s compiler', async () => {
    const project = await makeProject({
      'suites/plain.yaml': [
        'suite: plain',
        'service: router',
        'model: openai/gpt-4o-mini',
        'cases:',
        '  - id: hello',
        '    prompt: "Say exactly: hello"',
        '    expect: [{ contains: hello }]',
        '',
      ].join('\n'),
    });
    const loads = join(project.dir, 'ajv-loads.txt');
    const env = { NODE_OPTIONS: `--import ${pathToFileURL(HOOK).href}`, AJV_LOADS_FILE: loads };
    const loaded = () => readFile(loads, 'utf8').catch(() => '');
    try {
      const validate = await runCli(['validate', 'suites'], { cwd: project.dir, env });
      expect(validate.code, validate.stderr).toBe(0);
      const run = await runCli(['run', '--sim', 'suites'], { cwd: project.dir, env });
      expect(run.code, run.stderr).toBe(0);
      const report = await runCli(['report', runDirFrom(run, project.dir)], { cwd: project.dir, env });
      expect(report.code, report.stderr).toBe(0);
      expect(await loaded()).toBe('');
      // The hook does see a compile: a json_schema check of the suite's own needs one.
      await writeFile(
        join(project.dir, 'suites/plain.yaml'),
        (await readFile(join(project.dir, 'suites/plain.yaml'), 'utf8')).replace(
          '[{ contains: hello }]',
          '[{ json_schema: { type: object } }]',
        ),
      );
      const schema = await runCli(['validate', 'suites'], { cwd: project.dir, env });
      expect(schema.code, schema.stderr).toBe(0);
      expect(await loaded()).toMatch(/^ajv\/dist\/2020/m);
    } finally {
      await project.cleanup();
    }
  });
});
