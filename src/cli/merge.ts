import { mkdir } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { baselineReader } from '../stored/baseline/cache.js';
import { UsageError } from '../util/errors.js';
import { foldRunDirs } from '../fold/run-dirs.js';
import { journalMessages, promptsMissingTo } from '../run/plan-messages.js';
import { isLegacyJournal, readLegacyRun } from '../stored/journal/legacy.js';
import { readJournalPlans } from '../stored/journal/read.js';
import { newRunId } from '../run/meta.js';
import { exitReason } from '../fold/summary.js';
import { exitLine } from './exit-line.js';
import type { CliIO } from './io.js';
import { projectPaths } from './project.js';
import { journalReporters, parseReporters, publishSummary } from './outputs.js';

/**
 * `driftcheck merge RUN_DIR… --out DIR`: one report from the shards' journals, re-diffed
 * against baselines/, so its verdict and exit code are those an unsharded run would have had.
 */
export async function mergeCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      out: { type: 'string' },
      'baseline-dir': { type: 'string' },
      reporter: { type: 'string' },
      'allow-partial': { type: 'boolean' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (!values.out || positionals.length === 0) {
    throw new UsageError("usage: driftcheck merge RUN_DIR… --out DIR (the shards' run folders)");
  }
  const reporters = parseReporters(values.reporter);
  const dirs = positionals.map((p) => resolve(io.cwd, p).replace(/[/\\]report\.json$/, ''));
  const { complete, missing } = await checkShards(dirs, io);
  if (!complete) {
    // A merge that lacks a shard checked less than the run asked for: never a quiet pass.
    if (!values['allow-partial'])
      throw new UsageError(
        `${missing}; the merged report would be partial\n  → pass every shard's run folder, or --allow-partial to merge what is there (no case can then be called missing)`,
      );
    io.stderr(`driftcheck merge: warning: ${missing}: the merged report is partial (--allow-partial)\n`);
  }
  const outDir = resolve(io.cwd, values.out);
  await mkdir(outDir, { recursive: true });
  const folded = await foldRunDirs(dirs, {
    baseline: baselineReader(projectPaths(io).dir(values['baseline-dir'], 'baselines'), io.cwd).read,
    reporters: await journalReporters(io, outDir, reporters),
    complete,
    renderedBy: 'merge',
    messages: journalMessages(
      io.cwd,
      promptsMissingTo((line) => io.stderr(line), 'driftcheck merge'),
    ),
    run: { id: newRunId(new Date()), command: ['driftcheck', 'merge', ...args], shard: null },
  });
  await publishSummary(io, outDir, reporters);
  io.stderr(`merged ${dirs.length} run(s): ${folded.files.map((f) => relative(io.cwd, f)).join(' · ')}\n`);
  const { run, summary } = folded.head;
  io.stderr(exitLine('merge', run.exit_code, exitReason(run, summary)));
  return run.exit_code;
}

/**
 * Reads each shard's journal head and refuses a case planned by two of them (the same shard
 * twice). Returns whether the shards are every shard of one plan (1/N … N/N), and if not, what is missing.
 */
async function checkShards(
  dirs: readonly string[],
  io: CliIO,
): Promise<{ complete: boolean; missing: string }> {
  const owner = new Map<string, string>();
  const shards: ({ index: number; total: number } | null)[] = [];
  for (const dir of dirs) {
    const journal = join(dir, 'results.jsonl');
    const { run, plans } = (await isLegacyJournal(journal))
      ? await readLegacyRun(dir)
      : await readJournalPlans(journal);
    shards.push(run?.shard ?? null);
    for (const plan of plans) {
      for (const c of plan.cases) {
        const id = `${plan.suite}/${c.id}`;
        const seen = owner.get(id);
        if (seen !== undefined) {
          const where =
            seen === dir
              ? `run folder ${relative(io.cwd, dir) || '.'} was given twice`
              : `case ${id} is in both ${relative(io.cwd, seen) || '.'} and ${relative(io.cwd, dir) || '.'}`;
          throw new UsageError(`${where}\n  → pass each shard's run folder once`);
        }
        owner.set(id, dir);
      }
    }
  }
  const totals = new Set(shards.map((s) => s?.total ?? 1));
  const indexes = new Set(shards.map((s) => s?.index ?? 1));
  const total = [...totals][0] ?? 1;
  if (totals.size > 1)
    return {
      complete: false,
      missing: `the runs come from different shard counts (${[...totals].join(', ')})`,
    };
  const absent = Array.from({ length: total }, (_, i) => i + 1).filter((i) => !indexes.has(i));
  if (absent.length === 0) return { complete: true, missing: '' };
  return {
    complete: false,
    missing: `shard${absent.length > 1 ? 's' : ''} ${absent.map((i) => `${i}/${total}`).join(', ')} missing`,
  };
}
