import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.js';

// @action-validator/cli (a validator nobody here wrote, with GitHub's workflow and action
// schemas) checks every workflow and the action this repository ships.
const run = promisify(execFile);
const require = createRequire(import.meta.url);
const VALIDATOR = join(dirname(require.resolve('@action-validator/cli/package.json')), 'cli.mjs');
const validate = (file: string) =>
  run(process.execPath, [VALIDATOR, file]).then(
    () => 0,
    (error: { code?: number }) => error.code ?? 1,
  );

describe('GitHub workflows and the action', () => {
  it.each(['action.yml', 'examples/github-actions/nightly.yml', 'examples/github-actions/history.yml'])(
    '%s is valid',
    async (file) => {
      expect(await validate(join(REPO, file))).toBe(0);
    },
  );

  it('the validator fails on a broken copy (so the checks above can fail)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'driftcheck-workflow-'));
    try {
      const text = await readFile(join(REPO, 'examples/github-actions/nightly.yml'), 'utf8');
      await writeFile(join(dir, 'broken.yml'), text.replace('runs-on:', 'run-on:'));
      expect(await validate(join(dir, 'broken.yml'))).not.toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('the nightly never turns a shard exit into green, and bounds and serialises the night', async () => {
    const text = await readFile(join(REPO, 'examples/github-actions/nightly.yml'), 'utf8');
    expect(text).not.toMatch(/\|\|\s*true|exit 0\s*$/m);
    expect(text).toMatch(/timeout-minutes:/);
    expect(text).toMatch(/concurrency:\s*\n\s+group:/);
    expect(text).toMatch(/0\|1\) exit 0;;\s*\n\s*\*\) echo "::error::/);
    expect(text).toMatch(/driftcheck merge shards\/\*\/2\*\/ --out merged\n/); // no --allow-partial
  });
});
