import { mkdir } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { baselineReader } from '../stored/baseline/cache.js';
import { UsageError } from '../util/errors.js';
import { foldRunDirs } from '../fold/run-dirs.js';
import { journalMessages, promptsMissingTo } from '../run/plan-messages.js';
import { renderedExitCode, renderedExitReason } from '../fold/summary.js';
import { exitLine } from './exit-line.js';
import type { CliIO } from './io.js';
import { projectPaths } from './project.js';
import { journalReporters, parseReporters, publishSummary } from './outputs.js';

/**
 * `driftcheck report RUN_DIR [--out DIR] [--reporter LIST]`: re-renders every report of a
 * run from its journal and the baselines — a run that was killed before its reports were
 * written, or one whose reports a fixed reporter should render again. Several folders are
 * folded into one report (as `merge` does) and need `--out`.
 */
export async function reportCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { out: { type: 'string' }, reporter: { type: 'string' }, 'baseline-dir': { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length === 0)
    throw new UsageError(
      'usage: driftcheck report RUN_DIR… [--out DIR] [--reporter LIST] (run folders under reports/)',
    );
  if (positionals.length > 1 && !values.out)
    throw new UsageError('several run folders are folded into one report; say where with --out DIR');
  const dirs = positionals.map((p) => resolve(io.cwd, p));
  const out = values.out ? resolve(io.cwd, values.out) : dirs[0]!;
  await mkdir(out, { recursive: true });
  const reporters = parseReporters(values.reporter);
  const folded = await foldRunDirs(dirs, {
    baseline: baselineReader(projectPaths(io).dir(values['baseline-dir'], 'baselines'), io.cwd).read,
    reporters: await journalReporters(io, out, reporters),
    renderedBy: 'report',
    messages: journalMessages(
      io.cwd,
      promptsMissingTo((line) => io.stderr(line), 'driftcheck report'),
    ),
    ...(dirs.length > 1 ? { run: { shard: null, command: ['driftcheck', 'report', ...args] } } : {}),
  });
  for (const { dir, lines, malformed } of folded.skipped) {
    const first = malformed[0];
    io.stderr(
      `driftcheck report: ${relative(io.cwd, dir) || '.'}: passed over ${lines.length} unreadable journal line(s) (line ${lines.slice(0, 5).join(', ')}${lines.length > 5 ? ', …' : ''})\n`,
    );
    // A record with a wrongly typed field was edited, not torn: say what is wrong with it.
    if (first)
      io.stderr(
        `  → ${relative(io.cwd, join(dir, 'results.jsonl'))}: line ${first.line}: ${first.problem}${malformed.length > 1 ? ` (and ${malformed.length - 1} more)` : ''}\n`,
      );
  }
  await publishSummary(io, out, reporters);
  io.stderr(`report: ${folded.files.map((f) => relative(io.cwd, f)).join(' · ')}\n`);
  // A signal (or a kill) reached the run, not this command: it exits by what it rendered.
  const { run, summary } = folded.head;
  const code = renderedExitCode(run, summary);
  io.stderr(exitLine('report', code, renderedExitReason(run, summary)));
  return code;
}
