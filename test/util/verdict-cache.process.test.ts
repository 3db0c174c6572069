import { execFileSync, spawnSync } from 'node:child_process';
import { cp, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { makeProject, REPO, runCli } from '../helpers/cli.js';

// The built binary keeps the schemas and patterns it found sound between commands
// (src/util/verdict-cache.ts): a suite validated before is judged again without Ajv's compiler
// or RE2. Two hooks see what a command loads: Ajv's compiler (its entries) and each package.
const hooks = ['ajv-compiler', 'loaded-packages']
  .map((name) => `--import ${pathToFileURL(join(REPO, `test/fixtures/hooks/${name}.mjs`)).href}`)
  .join(' ');

/** A suite with a schema of each draft (a json_schema check, a tool's parameters) and a pattern. */
const SUITE = [
  'suite: shapes',
  'service: router',
  'model: openai/gpt-4o-mini',
  'params:',
  '  tools:',
  '    - type: function',
  '      function:',
  '        name: lookup_order',
  '        parameters: { type: object, properties: { id: { type: string, pattern: "^A[0-9]+$" } } }',
  'cases:',
  '  - id: order',
  '    prompt: "Reply with the order as JSON"',
  '    expect:',
  '      - json_schema: { type: object, required: [order_id] }',
  '      - regex: "/order_[0-9]+/i"',
  '',
].join('\n');

describe('verdicts kept between commands', () => {
  it('a suite validated before is judged without Ajv’s compiler or RE2; a problem is judged every time', async () => {
    const project = await makeProject({ 'suites/shapes.yaml': SUITE });
    const cache = join(project.dir, 'cache');
    const loads = join(project.dir, 'ajv-loads.txt');
    const packages = join(project.dir, 'packages.txt');
    const env = {
      NODE_OPTIONS: hooks,
      AJV_LOADS_FILE: loads,
      LOADED_PACKAGES_FILE: packages,
      DRIFTCHECK_CACHE_DIR: cache,
    };
    /** One validate: its result, and what it loaded of Ajv's compiler and of RE2. */
    const validate = async (extra: Record<string, string> = {}) => {
      await rm(loads, { force: true });
      await rm(packages, { force: true });
      const result = await runCli(['validate', 'suites'], { cwd: project.dir, env: { ...env, ...extra } });
      const read = (file: string) => readFile(file, 'utf8').catch(() => '');
      return {
        result,
        compiler: (await read(loads)).split('\n').filter(Boolean),
        re2: (await read(packages)).split('\n').includes('re2js'),
      };
    };
    try {
      const first = await validate();
      expect(first.result.code, first.result.stderr).toBe(0);
      // Both drafts' compilers and RE2 judged the suite: the positive control of the hooks.
      expect(first.compiler).toEqual(expect.arrayContaining(['ajv', 'ajv/dist/2020.js']));
      expect(first.re2).toBe(true);
      const kept = (await readFile(join(cache, 'verdicts'), 'utf8')).split('\n');
      expect(kept[0]).toBe('driftcheck verdicts 1');
      // The tool's schema, the json_schema's, the regex; each a digest, none the text itself.
      expect(kept.slice(1).filter(Boolean)).toHaveLength(3);
      expect(kept.join('\n')).not.toContain('order');

      const second = await validate();
      expect(second.result.code, second.result.stderr).toBe(0);
      expect(second.result.stdout).toBe(first.result.stdout);
      expect(second.compiler).toEqual([]);
      expect(second.re2).toBe(false);

      // `off` keeps none: judged whole again.
      const off = await validate({ DRIFTCHECK_CACHE_DIR: 'off' });
      expect(off.compiler.length).toBeGreaterThan(0);

      // A schema that does not compile is refused every time, at its place: only soundness is kept.
      await writeFile(
        join(project.dir, 'suites/shapes.yaml'),
        SUITE.replace('required: [order_id]', 'required: order_id'),
      );
      for (let i = 0; i < 2; i++) {
        const broken = await validate();
        expect(broken.result.code).toBe(2);
        expect(broken.result.stderr).toMatch(/shapes\.yaml:14:\d+.*not a JSON Schema ajv can compile/);
      }
    } finally {
      await project.cleanup();
    }
  });

  it('another build judges afresh; a cache file not of ours, or not a file, is no cache', async () => {
    const project = await makeProject({ 'suites/shapes.yaml': SUITE });
    // A copy of the built package whose build stamp differs: another build of driftcheck.
    const other = join(project.dir, 'other');
    await mkdir(other);
    for (const part of ['bin', 'dist', 'package.json'])
      await cp(join(REPO, part), join(other, part), { recursive: true });
    await symlink(join(REPO, 'node_modules'), join(other, 'node_modules'));
    await writeFile(join(other, 'dist/.build-stamp'), `${'0'.repeat(64)}\n`);
    const cache = join(project.dir, 'cache');
    const loads = join(project.dir, 'ajv-loads.txt');
    const env = {
      NODE_OPTIONS: hooks,
      AJV_LOADS_FILE: loads,
      LOADED_PACKAGES_FILE: join(project.dir, 'p.txt'),
    };
    /** Whether a validate by the package at `root`, keeping verdicts in `dir`, compiled a schema. */
    const compiles = async (root: string, dir = cache) => {
      await rm(loads, { force: true });
      const out = spawnSync(process.execPath, [join(root, 'bin/driftcheck.js'), 'validate', 'suites'], {
        cwd: project.dir,
        env: { PATH: process.env.PATH, NO_COLOR: '1', ...env, DRIFTCHECK_CACHE_DIR: dir },
        encoding: 'utf8',
      });
      expect(out.status, out.stderr).toBe(0);
      return (await readFile(loads, 'utf8').catch(() => '')).length > 0;
    };
    try {
      expect(await compiles(REPO)).toBe(true);
      expect(await compiles(REPO)).toBe(false);
      // The same cache folder, another build: nothing it holds is that build's.
      expect(await compiles(other)).toBe(true);
      expect(await compiles(other)).toBe(false);
      expect(await compiles(REPO)).toBe(false);

      // Garbage where the cache is: read as nothing, and replaced by the verdicts of this command.
      const junk = join(project.dir, 'junk');
      await mkdir(junk);
      await writeFile(
        join(junk, 'verdicts'),
        'driftcheck verdicts 1\nnot a digest\n' + 'f'.repeat(64) + '\n',
      );
      expect(await compiles(REPO, junk)).toBe(true);
      const rewritten = (await readFile(join(junk, 'verdicts'), 'utf8')).split('\n');
      expect(rewritten).not.toContain('not a digest');
      expect(await compiles(REPO, junk)).toBe(false);

      // A file past the cache's read limit (1 MiB) is no cache either, though it holds this build's digests.
      const large = join(project.dir, 'large');
      await mkdir(large);
      const digests = (await readFile(join(junk, 'verdicts'), 'utf8')).trimEnd();
      await writeFile(
        join(large, 'verdicts'),
        `${digests}\n${'0'.repeat(64)}\n`.padEnd(1024 * 1024 + 1, '\n'),
      );
      expect(await compiles(REPO, large)).toBe(true);

      // A FIFO where the file would be is not waited on.
      const fifo = join(project.dir, 'fifo');
      await mkdir(fifo);
      execFileSync('mkfifo', [join(fifo, 'verdicts')]);
      expect(await compiles(REPO, fifo)).toBe(true);
    } finally {
      await project.cleanup();
    }
  });
});
