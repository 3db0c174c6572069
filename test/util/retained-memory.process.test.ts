import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { makeProject, runCli, runDirFrom } from '../helpers/cli.js';

// These measure what stays on the heap after a forced GC, in a child process running the
// built library (`npm test` builds first): the property under test is memory, and only a
// real heap can show it. They compare two amounts within one process, never a time.
const dist = (file: string) => pathToFileURL(resolve('dist', file)).href;
const root = mkdtempSync(join(tmpdir(), 'driftcheck-retained-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function retainedMb(script: string): Record<string, number> {
  const file = join(root, `probe-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(
    file,
    `const used = () => { globalThis.gc(); globalThis.gc(); return process.memoryUsage().heapUsed / 2 ** 20; };\n${script}`,
  );
  return JSON.parse(execFileSync(process.execPath, ['--expose-gc', file], { encoding: 'utf8' })) as Record<
    string,
    number
  >;
}

describe('retained memory', () => {
  it('a loaded suite does not keep its file text alive', () => {
    const dir = join(root, 'suites');
    mkdirSync(dir);
    // 12 files of 2 MB each, nearly all of it a comment: held, their texts would be 24 MB.
    const padding = `# ${'x'.repeat(998)}\n`.repeat(2000);
    for (let i = 0; i < 12; i++) {
      writeFileSync(
        join(dir, `s${i}.yaml`),
        `${padding}suite: suite-number-${i}-of-twelve\nservice: router\nmodel: openai/gpt-4o-mini-2024-07-18\n` +
          `system: You are a helpful assistant for suite ${i}.\ncases:\n` +
          `  - id: a-case-with-a-long-identifier-${i}\n    prompt: "Say exactly: this is the case of suite ${i}"\n` +
          `    expect:\n      - contains: "this is the case of suite ${i}"\n`,
      );
    }
    const out = retainedMb(`
      const { loadSuites } = await import(${JSON.stringify(dist('index.js'))});
      const before = used();
      const suites = await loadSuites([${JSON.stringify(dir)}]);
      const after = used();
      console.log(JSON.stringify({ suites: suites.length, grew: after - before }));
    `);
    expect(out.suites).toBe(12);
    expect(out.grew).toBeLessThan(6);
  });

  it('parsed answers share one copy of a repeated model id', () => {
    // 40,000 answers naming a 250-character model: 10 MB of copies if each kept its own.
    const out = retainedMb(`
      const { normalizeCompletion } = await import(${JSON.stringify(dist('service/normalize.js'))});
      const body = (model) => JSON.stringify({ id: 'gen-1', model, choices: [{ message: { content: 'ok' }, finish_reason: 'stop' }] });
      const hold = (model) => {
        const text = body(model);
        const kept = [];
        for (let i = 0; i < 40000; i++) kept.push(normalizeCompletion('router', JSON.parse(text), 'x').completion);
        return kept;
      };
      let base = used();
      let kept = hold('m');
      const short = used() - base;
      kept = null;
      base = used();
      kept = hold('${'m'.repeat(250)}');
      const long = used() - base;
      console.log(JSON.stringify({ short, long, held: kept.length }));
    `);
    expect(out.held).toBe(40000);
    expect(out.long! - out.short!).toBeLessThan(3);
  });

  it("a merge read side by side holds the plans of the suites it has reached, not every shard's whole plan", async () => {
    // 24 suites of 60 cases, each prompt 8 KB of its own: every case's messages are in its
    // shard's plan record, about 11 MB in all.
    const files: Record<string, string> = {};
    for (let s = 0; s < 24; s++) {
      const cases = Array.from({ length: 60 }, (_, i) => {
        const id = `s${s}-case-${i}`;
        return `  - id: ${id}\n    prompt: "Say exactly: ${id} ${`${id} `.repeat(800).slice(0, 8000)}"\n    expect: [{ contains: "${id}" }]`;
      });
      files[`suites/s${s}.yaml`] =
        `suite: suite-${String(s).padStart(2, '0')}\nservice: router\nmodel: openai/gpt-4o-mini\ncases:\n${cases.join('\n')}\n`;
    }
    const project = await makeProject(files);
    try {
      const dirs: string[] = [];
      for (const shard of ['1/2', '2/2']) {
        const run = await runCli(['run', '--sim', '--shard', shard, '--reporter', 'json'], {
          cwd: project.dir,
        });
        expect(run.code).toBe(0);
        dirs.push(runDirFrom(run, project.dir));
      }
      const out = retainedMb(`
        const { foldRunDirs, readJournalPlans } = await import(${JSON.stringify(dist('index.js'))});
        const dirs = ${JSON.stringify(dirs)};
        const atSuite = [];
        let base = 0;
        const fold = () =>
          foldRunDirs(dirs, {
            baseline: async () => ({ baseline: null, path: null }),
            reporters: [{ onSuiteStart: () => void atSuite.push(used() - base) }],
            complete: true,
            renderedBy: 'merge',
          });
        // Once untimed, so that the code it runs is compiled before anything is measured.
        await fold();
        atSuite.length = 0;
        base = used();
        // What the shards' whole plans take, held at once.
        let heads = [];
        for (const dir of dirs) heads.push(await readJournalPlans(dir + '/results.jsonl'));
        const plans = used() - base;
        heads = null;
        base = used();
        await fold();
        console.log(JSON.stringify({ plans, suites: atSuite.length, first: atSuite[0], last: atSuite.at(-1) }));
      `);
      expect(out.suites).toBe(24);
      expect(out.plans).toBeGreaterThan(10);
      // Held from the start, every later suite's plan would be released suite by suite: the
      // first suite's fold would hold about 23/24 of them more than the last one's.
      expect(out.first! - out.last!).toBeLessThan(out.plans! / 4);
    } finally {
      await project.cleanup();
    }
  });
});
