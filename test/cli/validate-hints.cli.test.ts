import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { makeProject } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';

const suite = (model: string, expect: string, id = 'refund-window') =>
  `suite: refunds\nservice: router\nmodel: ${model}\ncases:\n  - id: ${id}\n    prompt: What is the refund window?\n    expect:\n      - ${expect}\n`;

describe('validate catches what it can before anything is sent', () => {
  it('an unknown finish_reason is a warning with a did-you-mean, at its line; validate still exits 0', async () => {
    const project = await makeProject({
      'suites/refunds.yaml': suite('openai/gpt-4o-mini', 'finish_reason: stopp'),
    });
    try {
      const result = await runMain(['validate'], { cwd: project.dir });
      expect(result.code).toBe(0);
      expect(result.stderr).toContain(
        "driftcheck validate: suites/refunds.yaml:8:24: warning: 'cases[0].expect[0].finish_reason' 'stopp' is not a finish_reason the services document",
      );
      expect(result.stderr).toContain("→ did you mean 'stop'?");
      expect(result.stdout).toMatch(/^ok: 1 suite, 1 case; .*; 1 warning \(above\)\n$/);
      // A value no guess is close to is still only a warning: services add values.
      await import('node:fs/promises').then((fs) =>
        fs.writeFile(`${project.dir}/suites/refunds.yaml`, suite('openai/gpt-4o-mini', 'finish_reason: eos')),
      );
      const other = await runMain(['validate'], { cwd: project.dir });
      expect(other.code).toBe(0);
      expect(other.stderr).toContain("warning: 'cases[0].expect[0].finish_reason' 'eos'");
      expect(other.stderr).not.toContain('did you mean');
      // A known value says nothing.
      await import('node:fs/promises').then((fs) =>
        fs.writeFile(
          `${project.dir}/suites/refunds.yaml`,
          suite('openai/gpt-4o-mini', 'finish_reason: length'),
        ),
      );
      const known = await runMain(['validate'], { cwd: project.dir });
      expect([known.code, known.stderr]).toEqual([0, '']);
    } finally {
      await project.cleanup();
    }
  });

  it('run prints the same warning and runs; an error beside it reports both at once (exit 2)', async () => {
    const project = await makeProject({
      'suites/refunds.yaml': suite('openai/gpt-4o-mini', 'finish_reason: stopp'),
    });
    try {
      const run = await runMain(['run', '--sim', '--reporter', 'json'], { cwd: project.dir });
      expect(run.code).toBe(1); // the check fails on every answer, as the warning said it would
      expect(run.stderr).toContain(
        "driftcheck run: suites/refunds.yaml:8:24: warning: 'cases[0].expect[0].finish_reason'",
      );
      await import('node:fs/promises').then((fs) =>
        fs.writeFile(
          `${project.dir}/suites/refunds.yaml`,
          suite('openai/gpt-4o-mini', 'finish_reason: stopp').replace(
            'service: router',
            'service: router\nrepeet: 3',
          ),
        ),
      );
      const both = await runMain(['validate'], { cwd: project.dir });
      expect(both.code).toBe(2);
      expect(both.stderr).toContain("unknown key 'repeet'");
      expect(both.stderr).toContain("warning: 'cases[0].expect[0].finish_reason' 'stopp'");
    } finally {
      await project.cleanup();
    }
  });

  it('an id with a non-ASCII letter is told the real rule (ASCII letters, digits, ., _, -)', async () => {
    const project = await makeProject({
      'suites/refunds.yaml': suite('openai/gpt-4o-mini', 'non_empty: true', 'été-refund'),
    });
    try {
      const result = await runMain(['validate'], { cwd: project.dir });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(
        "suites/refunds.yaml:5:9: 'cases[0].id' contains 'é', which is not an ASCII character",
      );
      expect(result.stderr).toContain("use ASCII letters (a-z, A-Z), digits, '.', '_' and '-'");
      expect(result.stderr).not.toContain('must start with a letter');
    } finally {
      await project.cleanup();
    }
  });
});

it('a path that does not exist is named as given, without a line and column it does not have', async () => {
  const project = await makeProject({});
  try {
    const result = await runMain(['validate', 'nodir'], { cwd: project.dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^driftcheck validate: nodir: no such file or folder\n {2}→ check the path/,
    );
    expect(result.stderr).not.toContain('nodir:1:1');
  } finally {
    await project.cleanup();
  }
});

describe('the alias hint names the real file and a model of the alias family', () => {
  const ALIAS = suite('~anthropic/claude-opus-latest', 'non_empty: true');

  it('validate (nothing sent) names `driftcheck pin` on the file as written, no fixed example', async () => {
    const project = await makeProject({ 'suites/team/nightly.yaml': ALIAS });
    try {
      const result = await runMain(['validate'], { cwd: project.dir });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('suites/team/nightly.yaml:3:8: model');
      expect(result.stderr).toContain('run `driftcheck pin suites/team/nightly.yaml`');
      expect(result.stderr).not.toContain('claude-opus-4.5');
      expect(result.stderr).not.toContain('FILE');
    } finally {
      await project.cleanup();
    }
  });

  it('run --sim suggests the family from the simulator catalog, today’s target first', async () => {
    const project = await makeProject({ 'suites/team/nightly.yaml': ALIAS });
    try {
      const result = await runMain(['run', '--sim'], { cwd: project.dir });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(
        "name one of its family in the simulator's catalog: anthropic/claude-opus-4.5, anthropic/claude-opus-4.1;",
      );
      expect(result.stderr).not.toMatch(/sonnet|gpt/);
    } finally {
      await project.cleanup();
    }
  });

  it('run reads the router’s /models for the hint, suite and judge alike', async () => {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      const data = [
        { id: 'acme/widget-1', alias_target: null },
        { id: 'acme/widget-2', alias_target: null },
        { id: 'acme/gadget-9', alias_target: null },
        { id: '~acme/widget-latest', alias_target: { slug: 'acme/widget-2' } },
      ];
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    const project = await makeProject({
      'suites/widgets.yaml': suite(
        '~acme/widget-latest',
        'judge: { model: ~acme/widget-latest, rubric: polite }',
      ),
      'driftcheck.config.yaml': `services:\n  router: { kind: router, base_url: http://127.0.0.1:${port}/api/v1, api_key_env: OPENROUTER_API_KEY }\n`,
    });
    try {
      const env = { OPENROUTER_API_KEY: `sk-or-v1-${'ab'.repeat(32)}` };
      const result = await runMain(['run'], { cwd: project.dir, env });
      expect(result.code).toBe(2);
      expect(seen).toEqual(['GET /api/v1/models']); // the catalog only: no completion was sent
      const family =
        "name one of its family in the model list of service 'router': acme/widget-2, acme/widget-1;";
      expect(result.stderr).toContain(
        `run \`driftcheck pin suites/widgets.yaml\` (it writes the model the alias points at today), or ${family}`,
      );
      expect(result.stderr).toContain(`judge.model' '~acme/widget-latest' is an alias`);
      expect(result.stderr.split(family).length).toBe(3); // the suite's and the judge's hint
      expect(result.stderr).not.toContain('gadget');
    } finally {
      server.close();
      await project.cleanup();
    }
  });
});
