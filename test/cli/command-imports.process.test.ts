import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { makeProject, REPO, runCli, runDirFrom } from '../helpers/cli.js';

// Every command's start-up is the modules it loads before its first line of work: a command
// that only reads stored runs must not load the HTTP client (undici: 111 files, ~40 ms of
// `driftcheck report` until the fold reached it through a hint function), and what a suite
// does not use is loaded on first use (src/util/lazy.ts) or not at all. The built binary runs
// each command with a hook that notes every package a module is loaded from.
const HOOK = pathToFileURL(join(REPO, 'test/fixtures/hooks/loaded-packages.mjs')).href;

// The built binary finds the validators `npm run build` compiled (dist/validators/, through
// src/util/validators.ts) from wherever its code lies — bundled into dist/bin/ since
// scripts/bundle.mjs. Were they not found, it would still work, compiling the schemas with
// Ajv at start-up (~200 ms a command): only loading Ajv's compiler tells the two apart. A
// suite with no schema of its own needs no compiler to be validated, run or reported.
const AJV_HOOK = pathToFileURL(join(REPO, 'test/fixtures/hooks/ajv-compiler.mjs')).href;

/** A suite of plain checks: no schema, no pattern, no table, no tool. */
const PLAIN = [
  'suite: plain',
  'service: router',
  'model: openai/gpt-4o-mini',
  'cases:',
  '  - id: hello',
  '    prompt: "Say exactly: hello"',
  '    expect: [{ contains: hello }]',
  '',
].join('\n');

/** What only a command that sends requests needs. */
const SENDING = ['undici', 'eventsource-parser'];
/** Loaded on first use, which a plain suite never makes (src/util/lazy.ts). */
const UNUSED = ['yaml', 'csv-parse', 're2js', 'string-width'];

describe('what each built command loads', () => {
  it('validate, list, report, diff and history of a plain suite: no HTTP client, nothing the suite does not use', async () => {
    const project = await makeProject({ 'suites/plain.yaml': PLAIN });
    const file = join(project.dir, 'loaded.txt');
    const env = { NODE_OPTIONS: `--import ${HOOK}`, LOADED_PACKAGES_FILE: file };
    /** The packages one command loaded. */
    const loadedBy = async (args: string[], codes = [0]) => {
      await rm(file, { force: true });
      const result = await runCli(args, { cwd: project.dir, env });
      expect(codes, `${args.join(' ')}: ${result.stderr}`).toContain(result.code);
      return { result, packages: (await readFile(file, 'utf8').catch(() => '')).split('\n').filter(Boolean) };
    };
    try {
      // The positive control: a run sends, so it loads the HTTP client, and the hook sees it.
      const first = await loadedBy(['run', '--sim', 'suites', '--history', 'history', '--history-force']);
      expect(first.packages).toContain('undici');
      const second = await loadedBy(['run', '--sim', 'suites', '--history', 'history', '--history-force']);
      const [a, b] = [runDirFrom(first.result, project.dir), runDirFrom(second.result, project.dir)];
      for (const args of [
        ['validate', 'suites'],
        ['list', 'suites'],
        ['report', b],
        ['diff', a, b],
        ['history', 'history', '--out', 'trend.html'],
      ]) {
        const { packages } = await loadedBy(args);
        for (const name of [...SENDING, ...UNUSED])
          expect(packages, `${args[0]} loaded ${name}`).not.toContain(name);
      }
    } finally {
      await project.cleanup();
    }
  });

  it('validate, run --sim and report of a suite without schemas of its own never load Ajv’s compiler', async () => {
    const project = await makeProject({ 'suites/plain.yaml': PLAIN });
    const loads = join(project.dir, 'ajv-loads.txt');
    const env = { NODE_OPTIONS: `--import ${AJV_HOOK}`, AJV_LOADS_FILE: loads };
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
