import { mkdir } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { baselineReader } from '../baseline/cache.js';
import { UsageError } from '../errors.js';
import { foldRunDirs } from '../fold/run-dirs.js';
import { readJournalHead } from '../journal/read.js';
import { createReporters } from '../report/outputs.js';
import { newRunId } from '../run/meta.js';
import type { CliIO } from './io.js';
import { parseReporters, publishSummary } from './outputs.js';

/**
 * `driftcheck merge RUN_DIR… --out DIR`: one report from the shards' journals, re-diffed
 * against baselines/, so its verdict and exit code are those an unsharded run would have had.
 */
export async function mergeCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { out: { type: 'string' }, 'baseline-dir': { type: 'string' }, reporter: { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  if (!values.out || positionals.length === 0) {
    throw new UsageError('usage: driftcheck merge RUN_DIR… --out DIR (the shards\' run folders)');
  }
  const reporters = parseReporters(values.reporter);
  const dirs = positionals.map((p) => resolve(io.cwd, p).replace(/[/\\]report\.json$/, ''));
  const complete = await checkShards(dirs, io);
  const outDir = resolve(io.cwd, values.out);
  await mkdir(outDir, { recursive: true });
  const folded = await foldRunDirs(dirs, {
    baseline: baselineReader(resolve(io.cwd, values['baseline-dir'] ?? 'baselines')).read,
    reporters: await createReporters(reporters, {
      dir: outDir,
      redact: (t) => t,
      write: io.stdout,
      color: io.color,
      ...(io.columns ? { columns: io.columns } : {}),
    }),
    complete,
    run: { id: newRunId(new Date()), command: ['driftcheck', 'merge', ...args], shard: null },
  });
  await publishSummary(io, outDir, reporters);
  io.stderr(`merged ${dirs.length} run(s): ${folded.files.map((f) => relative(io.cwd, f)).join(' · ')}\n`);
  return folded.head.run.exit_code;
}

/**
 * Reads each shard's journal head and refuses a case planned by two of them (the same shard
 * twice). Returns whether the shards are every shard of one plan (1/N … N/N).
 */
async function checkShards(dirs: readonly string[], io: CliIO): Promise<boolean> {
  const owner = new Map<string, string>();
  const shards: ({ index: number; total: number } | null)[] = [];
  for (const dir of dirs) {
    const { run, plans } = await readJournalHead(join(dir, 'results.jsonl'));
    shards.push(run?.shard ?? null);
    for (const plan of plans) {
      for (const c of plan.cases) {
        const id = `${plan.suite}/${c.id}`;
        const seen = owner.get(id);
        if (seen !== undefined) {
          const same = seen === dir ? 'twice' : `in both ${relative(io.cwd, seen) || '.'} and ${relative(io.cwd, dir) || '.'}`;
          throw new UsageError(`case ${id} is planned ${same}\n  → pass each shard's run folder once`);
        }
        owner.set(id, dir);
      }
    }
  }
  const totals = new Set(shards.map((s) => s?.total ?? 1));
  const indexes = new Set(shards.map((s) => s?.index ?? 1));
  const total = [...totals][0] ?? 1;
  return totals.size === 1 && indexes.size === total && dirs.length === total;
}
