import { execFileSync, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BIN,
  type CliResult,
  copyFromRepo,
  QUIET_ENV,
  makeProject,
  runCli,
  runDirFrom,
} from '../helpers/cli.js';

const MiB = 1024 * 1024;
/** 64 KiB of `y` lines: what `yes` writes. */
const YES = Buffer.from('y\n'.repeat(32 * 1024));

/**
 * Writes `yes` lines into a stream for as long as it takes them, counting what it wrote:
 * the reader must stop on its own, so the count stays near the limit.
 */
function produceForever(stream: NodeJS.WritableStream): { written: () => number } {
  let written = 0;
  let open = true;
  stream.on('error', () => (open = false)); // EPIPE once the reader has stopped
  stream.on('close', () => (open = false));
  const pump = (): void => {
    while (open) {
      written += YES.length;
      if (!stream.write(YES)) return void stream.once('drain', pump);
    }
  };
  pump();
  return { written: () => written };
}

/** A producer like `yes`, counting what it wrote into the file named by its argument once the reader is gone. */
const PRODUCER = `
const buf = Buffer.from('y\\n'.repeat(32 * 1024));
let n = 0;
process.stdout.on('error', () => {
  require('node:fs').writeFileSync(process.argv[1], String(n));
  process.exit(0);
});
(function pump() {
  for (;;) {
    n += buf.length;
    if (!process.stdout.write(buf)) return void process.stdout.once('drain', pump);
  }
})();
`;

/**
 * The CLI with an endless producer on its stdin, through a real pipe as a shell makes it
 * (`yes | driftcheck …`; node's own stdio pipes are sockets, which /dev/stdin cannot open).
 */
async function runWithEndlessStdin(args: string[], cwd: string): Promise<CliResult & { fed: number }> {
  const counted = join(cwd, '.fed');
  const child = spawn(
    'sh',
    ['-c', '"$NODE" -e "$PRODUCER" "$COUNTED" | exec "$NODE" "$BIN" "$@"', 'sh', ...args],
    {
      cwd,
      env: {
        PATH: process.env.PATH,
        NO_COLOR: '1',
        ...QUIET_ENV,
        NODE: process.execPath,
        BIN,
        PRODUCER,
        COUNTED: counted,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const { code, signal } = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>(
    (done, fail) => {
      child.on('error', fail);
      child.on('close', (code, signal) => done({ code, signal }));
    },
  );
  return { code, signal, stdout, stderr, fed: Number(await readFile(counted, 'utf8')) };
}

const SUITE = `suite: small
service: router
model: openai/gpt-4o-mini
cases:
  - { id: a, prompt: hello }
`;

describe('inputs that never end are read up to their limit, then refused (exit 2)', () => {
  it('validate /dev/stdin fed by an endless producer', async () => {
    const project = await makeProject();
    try {
      const result = await runWithEndlessStdin(['validate', '/dev/stdin'], project.dir);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(
        '/dev/stdin: file is too large: more than the 5 MiB driftcheck reads of a suite (reading stopped there)',
      );
      expect(result.stderr).toMatch(/→ split it into smaller files/);
      // It read what the limit allows and stopped: the producer was not drained without end.
      expect(result.fed).toBeLessThan(5 * MiB + 8 * MiB);
    } finally {
      await project.cleanup();
    }
  });

  it.each([['validate'], ['run', '--sim']])('%s --config /dev/zero', async (...command) => {
    const project = await makeProject({ 'suites/small.yaml': SUITE });
    try {
      const result = await runCli([...command, '--config', '/dev/zero'], { cwd: project.dir });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(
        '/dev/zero: file is too large: more than the 5 MiB driftcheck reads of a config (reading stopped there)',
      );
    } finally {
      await project.cleanup();
    }
  });

  it('a suite that is a FIFO an endless writer feeds', async () => {
    const project = await makeProject();
    const fifo = join(project.dir, 'endless.yaml');
    execFileSync('mkfifo', [fifo]);
    // Opening a FIFO for writing waits for its reader: the CLI.
    const writer = createWriteStream(fifo);
    const producer = produceForever(writer);
    try {
      const result = await runCli(['validate', 'endless.yaml'], { cwd: project.dir });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain('endless.yaml: file is too large: more than the 5 MiB');
      expect(producer.written()).toBeLessThan(5 * MiB + 8 * MiB);
    } finally {
      writer.destroy();
      await project.cleanup();
    }
  });
});

describe('files driftcheck reads back, each with the limit of its kind', () => {
  it('a baseline, a journal, a report and a history file that never end', async () => {
    const project = await makeProject({ 'suites/small.yaml': SUITE });
    try {
      await copyFromRepo(project.dir, 'driftcheck.config.yaml');
      const run = async (args: string[]) => {
        const result = await runCli(args, { cwd: project.dir });
        expect(result.stderr, args.join(' ')).not.toMatch(/internal error/);
        return result;
      };
      const first = await run(['run', '--sim', '--reporter', 'json']);
      expect(first.code, first.stderr).toBe(0);
      const dir = runDirFrom(first, project.dir);

      // A baseline: `run` stops before sending anything.
      await mkdir(join(project.dir, 'baselines'));
      await symlink('/dev/zero', join(project.dir, 'baselines', 'small.json'));
      const withBaseline = await run(['run', '--sim', '--reporter', 'json']);
      expect(withBaseline.code, withBaseline.stderr).toBe(2);
      expect(withBaseline.stderr).toMatch(
        /baselines\/small\.json: file is too large: more than the 256 MiB driftcheck reads of a baseline \(reading stopped there\); split the suite/,
      );
      await rm(join(project.dir, 'baselines'), { recursive: true });

      // A report, read by diff.
      const other = join(project.dir, 'other');
      await mkdir(other);
      await symlink('/dev/zero', join(other, 'report.json'));
      const diff = await run(['diff', dir, other]);
      expect(diff.code, diff.stderr).toBe(2);
      expect(diff.stderr).toMatch(
        /other\/report\.json: line 1 is too long: more than the 128 MiB driftcheck reads of a line of a report/,
      );

      // A history month file, read by the trend page.
      const history = join(project.dir, 'history');
      await mkdir(history);
      await symlink('/dev/zero', join(history, '2026-01.jsonl'));
      const page = await run(['history', history, '--out', join(project.dir, 'trends.html')]);
      expect(page.code, page.stderr).toBe(2);
      expect(page.stderr).toMatch(/2026-01\.jsonl: line 1 is too long: more than the 128 MiB/);

      // A journal, re-rendered by `report` and resumed by `run --resume`.
      await rm(join(dir, 'results.jsonl'));
      await symlink('/dev/zero', join(dir, 'results.jsonl'));
      for (const args of [
        ['report', dir],
        ['run', '--resume', dir],
      ]) {
        const again = await run(args);
        expect(again.code, `${args.join(' ')}: ${again.stderr}`).toBe(2);
        expect(again.stderr).toMatch(
          /results\.jsonl: line 1 is too long: more than the 128 MiB driftcheck reads of a line of a journal/,
        );
      }
    } finally {
      await project.cleanup();
    }
  }, 120_000);
});
