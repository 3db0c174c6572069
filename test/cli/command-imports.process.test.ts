import { readFile, rm } from 'node:fs/promises';
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
});
