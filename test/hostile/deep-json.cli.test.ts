import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyFromRepo, makeProject, readReport, runDirFrom } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';
import { completion, sendJson, startLoopbackService } from './loopback.js';

const KEY = `sk-or-v1-${'7'.repeat(48)}`;
const ENV = { OPENROUTER_API_KEY: KEY };
/** 20,000 nested arrays: 40 KB that overflowed the stack of the JSON Schema validator. */
const DEEP = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
/** A schema that recurses as deep as the value does. */
const RECURSIVE = '{ $defs: { n: { type: array, items: { $ref: "#/$defs/n" } } }, $ref: "#/$defs/n" }';

const SUITE = `suite: deep
service: router
model: openai/gpt-4o-mini
cases:
  - id: deep
    prompt: deep
    expect:
      - json_schema: ${RECURSIVE}
  - id: shallow
    prompt: shallow
    expect:
      - json_schema: ${RECURSIVE}
  - { id: error-body, prompt: error-body }
  - { id: choice-error, prompt: choice-error }
  - { id: error-500, prompt: error-500 }
`;

describe('JSON nested 20,000 deep from a service', () => {
  it('fails its own case with a message; the run writes its report, and resume and report work', async () => {
    const service = await startLoopbackService((req, res) => {
      if (req.prompt === 'deep') return sendJson(res, 200, completion(DEEP));
      if (req.prompt === 'shallow') return sendJson(res, 200, completion('[[[]],[]]'));
      if (req.prompt === 'error-body') return sendJson(res, 200, `{"error":${DEEP}}`);
      if (req.prompt === 'choice-error') return sendJson(res, 200, `{"choices":[{"error":${DEEP}}]}`);
      return sendJson(res, 500, `{"error":${DEEP}}`);
    });
    const project = await makeProject({
      'driftcheck.config.yaml': `services:
  router: { kind: router, base_url: ${service.url}/api/v1, api_key_env: OPENROUTER_API_KEY, retries: 0 }
`,
      'suites/deep.yaml': SUITE,
    });
    try {
      const run = await runMain(['run'], { cwd: project.dir, env: ENV });
      expect(run.stderr).not.toMatch(/internal error/);
      expect(run.code, run.stderr).toBe(1);
      const dir = runDirFrom(run, project.dir);
      const byCase = async () => new Map((await readReport(dir)).cases.map((c) => [c.case, c]));
      let cases = await byCase();
      expect(cases.get('deep')?.status).toBe('fail');
      expect(cases.get('deep')?.checks[0]?.message).toMatch(/nests more than 256 levels deep/);
      // The recursive schema itself still works on an answer of honest depth.
      expect(cases.get('shallow')?.status).toBe('pass');
      for (const id of ['error-body', 'choice-error']) {
        expect(cases.get(id)?.error?.kind, id).toBe('bad_response');
        expect(cases.get(id)?.error?.message, id).toMatch(/nested more than 256 levels deep/);
      }
      expect(cases.get('error-500')?.error?.kind).toBe('server_error');

      for (const args of [
        ['report', dir],
        ['run', '--resume', dir],
      ]) {
        const again = await runMain(args, { cwd: project.dir, env: ENV });
        expect(again.stderr, args.join(' ')).not.toMatch(/internal error/);
        expect(again.code, `${args.join(' ')}: ${again.stderr}`).toBe(1);
        cases = await byCase();
        expect(cases.get('deep')?.checks[0]?.message).toMatch(/nests more than 256 levels deep/);
      }

      // With that answer as the baseline, the drift compare reads it again.
      const accept = await runMain(['baseline', 'accept', dir], { cwd: project.dir, env: ENV });
      expect(accept.code, accept.stderr).toBe(0);
      const rerun = await runMain(['run'], { cwd: project.dir, env: ENV });
      expect(rerun.stderr).not.toMatch(/internal error/);
      expect(rerun.code, rerun.stderr).toBe(1);
      const deep = (await readReport(runDirFrom(rerun, project.dir))).cases.find((c) => c.case === 'deep');
      expect(deep?.status).toBe('fail');
    } finally {
      await service.close();
      await project.cleanup();
    }
  });
});

describe('JSON nested 20,000 deep in a file driftcheck reads back', () => {
  it('a journal line is passed over as damaged; a report case is refused with its line (exit 2)', async () => {
    const project = await makeProject({
      'suites/small.yaml': `suite: small
service: router
model: openai/gpt-4o-mini
cases:
  - { id: a, prompt: hello }
  - { id: b, prompt: again }
`,
    });
    try {
      await copyFromRepo(project.dir, 'driftcheck.config.yaml');
      const run = await runMain(['run', '--sim', '--reporter', 'json'], { cwd: project.dir });
      expect(run.code, run.stderr).toBe(0);
      const dir = runDirFrom(run, project.dir);

      // A sample line whose usage nests 20,000 deep: re-rendering died with a stack overflow.
      const journal = join(dir, 'results.jsonl');
      const deepSample = (await readFile(journal, 'utf8'))
        .split('\n')
        .find((line) => line.includes('"key":"small/b#0"'))!
        .replace(/"usage":\{[^}]*\}/, `"usage":${DEEP}`);
      await writeFile(journal, `${await readFile(journal, 'utf8')}${deepSample}\n`);
      const rendered = await runMain(['report', dir, '--reporter', 'json'], { cwd: project.dir });
      expect(rendered.stderr).not.toMatch(/internal error/);
      expect(rendered.code, rendered.stderr).toBe(0);
      expect(rendered.stderr).toMatch(/passed over 1 unreadable journal line/);

      // A report case that nests as deep, and one cut short, read by baseline accept and history add.
      const report = join(dir, 'report.json');
      const lines = (await readFile(report, 'utf8')).split('\n');
      const at = lines.findIndex((line) => line.startsWith('    {"id":"small/b",'));
      expect(at).toBeGreaterThan(0);
      for (const [damage, message] of [
        [
          () => lines[at]!.replace(/"usage":\{[^}]*\}/, `"usage":${DEEP}`),
          /nested more than 256 levels deep/,
        ],
        [() => lines[at]!.slice(0, 40), /: damaged \(/],
        // A field a reader restores another from (detail is derived from drift), of the wrong type.
        [
          () => `    ${JSON.stringify({ ...JSON.parse(lines[at]!.trim().replace(/,$/, '')), drift: 5 })},`,
          /'cases\[\d+\]\.drift' must be a list/,
        ],
      ] as const) {
        await writeFile(report, lines.map((line, i) => (i === at ? damage() : line)).join('\n'));
        for (const args of [
          ['baseline', 'accept', '--force', dir],
          ['history', 'add', 'history', dir],
        ]) {
          const result = await runMain(args, { cwd: project.dir });
          expect(result.stderr, args.join(' ')).not.toMatch(/internal error/);
          expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(2);
          expect(result.stderr).toContain(`report.json: line ${at + 1}: `);
          expect(result.stderr).toMatch(message);
          expect(result.stderr).toMatch(
            /re-render it from its journal with `driftcheck report \S+reports\/\S+`/,
          );
        }
      }
    } finally {
      await project.cleanup();
    }
  });
});
