import fc from 'fast-check';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { CliIO } from '../../src/cli/io.js';
import { copyFromRepo, makeProject } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';
import { type JsonEdit, jsonFileEdits, jsonLineEdits } from './mutate-json.js';

// Fixed so a failure reproduces; FUZZ_SEED=<n> explores other inputs.
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);

/**
 * Files a `run --sim` wrote, each edited in seeded ways (a key deleted, a value of another
 * type, null for an object, an array as a string, deep nesting, a cut), then read by every
 * command that reads it back. None may end in an internal error (exit 70); a refusal (exit 2)
 * names the file. The commands run in-process through the CLI's main(argv, io): hundreds of
 * inputs would take minutes as processes; the explicit cases in test/cli/stored-files.cli.test.ts
 * drive the built CLI as one.
 */
let pristine: string;
let cleanup: () => Promise<void>;
let runDir: string;
const outcomes = new Map<string, Map<number, number>>();

beforeAll(async () => {
  const project = await makeProject();
  pristine = project.dir;
  cleanup = project.cleanup;
  await copyFromRepo(pristine, 'suites', 'baselines', 'driftcheck.config.yaml');
  const made = await runMain(['run', '--sim', 'suites/demo', '--history', 'hist', '--history-force'], {
    cwd: pristine,
  });
  expect(made.code, made.stderr).toBe(1); // the demo catches its regressions
  await rm(join(pristine, 'reports/latest'), { recursive: true, force: true });
  const [id] = await readdir(join(pristine, 'reports'));
  runDir = `reports/${id}`;
}, 60_000);

afterAll(async () => {
  await cleanup?.();
  for (const [file, codes] of outcomes)
    console.log(
      `stored fuzz ${file}: exit codes ${JSON.stringify(Object.fromEntries(codes))} (seed ${SEED})`,
    );
});

/** main() with an IO that keeps what a command prints. */
async function inProcess(args: string[], cwd: string): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const keep = (t: string) => void (stderr += t);
  const io: CliIO = {
    stdout: () => {},
    stderr: keep,
    styled: { stdout: () => {}, stderr: keep },
    env: { PATH: process.env.PATH, NO_COLOR: '1' },
    cwd,
    color: false,
    tty: false,
  };
  return { code: await main(args, io), stderr };
}

interface Target {
  /** The file, relative to the project. */
  file: () => string;
  edits: (text: string) => fc.Arbitrary<JsonEdit>;
  /** Every command that reads the file back. */
  commands: () => string[][];
  runs: number;
  /**
   * What the readers say about an edit they notice: a refusal naming the file (exit 2), or
   * for the line-oriented files, the line they skipped. Some edits must be noticed.
   */
  noticed: RegExp;
  /** Refusals that name another file, read because the edited one points at it (a run.json's suites). */
  elsewhere?: RegExp;
}

const TARGETS: [string, Target][] = [
  [
    'report.json (its head, re-serialized)',
    {
      file: () => `${runDir}/report.json`,
      edits: jsonFileEdits,
      commands: () => [
        ['diff', runDir, runDir],
        ['baseline', 'accept', runDir, '--force'],
        ['history', 'add', 'hist', runDir, '--force'],
      ],
      runs: 40,
      noticed: /report\.json: /,
    },
  ],
  [
    "report.json (one case line, in driftcheck's layout)",
    {
      file: () => `${runDir}/report.json`,
      edits: (text) => jsonLineEdits(text, (line) => line.startsWith('    {"id"')),
      commands: () => [
        ['diff', runDir, runDir],
        ['baseline', 'accept', runDir, '--force'],
        ['history', 'add', 'hist', runDir, '--force'],
      ],
      runs: 40,
      noticed: /report\.json: (line \d+: )?.*cases\[\d+\]|report\.json: not JSON/,
    },
  ],
  [
    'run.json',
    {
      file: () => `${runDir}/run.json`,
      edits: jsonFileEdits,
      commands: () => [['run', '--resume', runDir]],
      runs: 30,
      noticed: /run\.json: /,
      // Its `paths` and `config_file` are read by the suite and config loaders, which name them.
      elsewhere: /^driftcheck run: [^\n]+(:\d+:\d+)?: /m,
    },
  ],
  [
    'results.jsonl',
    {
      file: () => `${runDir}/results.jsonl`,
      edits: (text) => jsonLineEdits(text),
      commands: () => [
        ['report', runDir],
        ['merge', runDir, '--out', 'merged'],
        ['diff', runDir, runDir],
        ['run', '--resume', runDir],
      ],
      runs: 40,
      noticed: /results\.jsonl: line \d+: /,
    },
  ],
  [
    'a baseline',
    {
      file: () => 'baselines/support-demo.json',
      edits: jsonFileEdits,
      commands: () => [
        ['report', runDir],
        ['baseline', 'accept', runDir, '--force'],
        ['run', '--sim', 'suites/demo'],
      ],
      runs: 30,
      noticed: /support-demo\.json: /,
    },
  ],
  [
    'a history month file',
    {
      file: () => 'hist/2026-11.jsonl',
      edits: (text) => jsonLineEdits(text),
      commands: () => [
        ['history', 'hist', '--out', 'trend.html'],
        ['history', 'add', 'hist', runDir, '--force'],
        ['run', '--sim', 'suites/demo', '--history', 'hist', '--history-force'],
      ],
      runs: 30,
      noticed: /\d{4}-\d{2}\.jsonl:\d+: /,
    },
  ],
];

describe('stored-file fuzz: no edited file driftcheck wrote ends in an internal error', () => {
  it.each(TARGETS)(
    '%s',
    async (name, target) => {
      const file = target.file();
      // The history month is named by the month the run started in.
      const actual = file.startsWith('hist/') ? `hist/${(await readdir(join(pristine, 'hist')))[0]}` : file;
      const original = await readFile(join(pristine, actual), 'utf8');
      const codes = new Map<number, number>();
      outcomes.set(name, codes);
      let round = 0;
      let noticed = 0;
      await fc.assert(
        fc.asyncProperty(target.edits(original), async (edit) => {
          const dir = await mkdtemp(join(tmpdir(), 'driftcheck-stored-fuzz-'));
          try {
            for (const args of target.commands()) {
              // A fresh copy per command: one command's writes are not the next one's input.
              await cp(pristine, dir, { recursive: true });
              await writeFile(join(dir, actual), edit.apply(original));
              const { code, stderr } = await inProcess(args, dir);
              codes.set(code, (codes.get(code) ?? 0) + 1);
              if (target.noticed.test(stderr)) noticed++;
              const what = `${edit.what} → driftcheck ${args.join(' ')} exited ${code}:\n${stderr}`;
              if (code === 70) throw new Error(what);
              // A refusal names the file it refuses (or, for a baseline, the file read through it).
              const named = stderr.includes(basename(actual)) || (target.elsewhere?.test(stderr) ?? false);
              if (code === 2 && !named) throw new Error(`unnamed file: ${what}`);
              await rm(dir, { recursive: true, force: true });
            }
          } finally {
            round++;
            await rm(dir, { recursive: true, force: true });
          }
        }),
        { seed: SEED, numRuns: target.runs },
      );
      expect(round).toBe(target.runs);
      // Not vacuous: the edits reach the readers, and the readers say so.
      expect(noticed, JSON.stringify(Object.fromEntries(codes))).toBeGreaterThan(0);
    },
    600_000,
  );
});
