import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeProject, readTree } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';

const USER_CONFIG = `# my own config, with my comments\nservices:\n  router: { kind: router, base_url: https://openrouter.ai/api/v1, api_key_env: MY_ROUTER_KEY }\n`;
const USER_SUITE = `suite: mine\nservice: router\nmodel: openai/gpt-4o\ncases:\n  - id: a\n    prompt: hi\n    expect: [{ non_empty: true }]\n`;

describe('init respects what a project already has', () => {
  it('init --workflow in an existing project adds only the workflow; config, suites and .gitignore stay byte-identical', async () => {
    const project = await makeProject({
      'driftcheck.config.yaml': USER_CONFIG,
      'suites/mine.yaml': USER_SUITE,
      '.gitignore': 'node_modules\n',
    });
    try {
      const before = await readTree(project.dir);
      const init = await runMain(['init', '--workflow'], { cwd: project.dir });
      expect(init.code).toBe(0);
      expect(init.stdout).toContain('wrote .github/workflows/driftcheck.yml');
      expect(init.stdout).toContain('kept driftcheck.config.yaml and your suites as they are');
      const after = await readTree(project.dir);
      const workflow = join(project.dir, '.github/workflows/driftcheck.yml');
      expect([...after.keys()].sort()).toEqual([...before.keys(), workflow].sort());
      for (const [file, text] of before) expect(after.get(file), file).toBe(text);
      expect(existsSync(join(project.dir, 'suites/example.yaml'))).toBe(false);

      // Once the workflow is there it is the user's too: refused, and --force overwrites only it.
      const again = await runMain(['init', '--workflow'], { cwd: project.dir });
      expect(again.code).toBe(2);
      expect(again.stderr).toContain(
        '.github/workflows/driftcheck.yml already exists\n  → keep it, or pass --force',
      );
      await import('node:fs/promises').then((fs) => fs.writeFile(workflow, 'name: mine\n'));
      const forced = await runMain(['init', '--workflow', '--force'], { cwd: project.dir });
      expect(forced.code).toBe(0);
      expect(await readFile(workflow, 'utf8')).toContain('npx driftcheck run suites/');
      expect(await readFile(join(project.dir, 'driftcheck.config.yaml'), 'utf8')).toBe(USER_CONFIG);
      expect(await readFile(join(project.dir, 'suites/mine.yaml'), 'utf8')).toBe(USER_SUITE);
    } finally {
      await project.cleanup();
    }
  });

  it("a fresh init's next line starts with the simulator and says where keys come in", async () => {
    const project = await makeProject({});
    try {
      const init = await runMain(['init'], { cwd: project.dir });
      expect(init.code).toBe(0);
      const next = init.stdout.slice(init.stdout.indexOf('next:'));
      expect(next).toMatch(/^next: driftcheck run --sim .*no keys needed/);
      expect(next).toContain('export OPENROUTER_API_KEY=');
      expect(next.indexOf('OPENROUTER_API_KEY')).toBeLessThan(next.indexOf('--update-baselines'));
      expect(next).not.toContain('run suites/ --update-baselines');
      // What it suggests first works as written.
      expect((await runMain(['run', '--sim', '--reporter', 'json'], { cwd: project.dir })).code).toBe(0);
    } finally {
      await project.cleanup();
    }
  });
});

describe('sim --port', () => {
  it.each([['99999'], ['65536'], ['-1'], ['http']])(
    '--port %s is a usage error naming the range (exit 2, no stack)',
    async (port) => {
      const project = await makeProject({});
      try {
        const sim = await runMain(['sim', `--port=${port}`], { cwd: project.dir });
        expect(sim.code).toBe(2);
        expect(sim.stderr).toMatch(/^driftcheck sim: --port expects /);
        expect(sim.stderr).not.toMatch(/internal error|\n\s+at /);
      } finally {
        await project.cleanup();
      }
    },
  );

  it('a port in use is a usage error with the reason (exit 2, no stack)', async () => {
    const holder = createServer();
    await new Promise<void>((r) => holder.listen(0, '127.0.0.1', r));
    const port = (holder.address() as AddressInfo).port;
    const project = await makeProject({});
    try {
      const sim = await runMain(['sim', '--port', String(port)], { cwd: project.dir });
      expect(sim.code).toBe(2);
      expect(sim.stderr).toBe(
        `driftcheck sim: --port ${port}: the port is already in use by another program\n  → pick another port, or --port 0 for any free one\n`,
      );
    } finally {
      holder.close();
      await project.cleanup();
    }
  });
});
