import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from '../util/errors.js';
import { createReporters, REPORTER_NAMES } from '../report/outputs.js';
import type { Reporter } from '../fold/reporter.js';
import type { CliIO } from './io.js';

/** `--reporter a,b`: every name must be known; default: all of them. */
export function parseReporters(list: string | undefined): Set<string> {
  if (list === undefined) return new Set(REPORTER_NAMES);
  const names = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const name of names) {
    if (!(REPORTER_NAMES as readonly string[]).includes(name)) {
      throw new UsageError(
        `--reporter: unknown reporter '${name}' (available: ${REPORTER_NAMES.join(', ')})`,
      );
    }
  }
  return new Set(names);
}

/**
 * In GitHub Actions ($GITHUB_STEP_SUMMARY set), appends the Markdown summary to the job
 * summary page, where reviewers see it without downloading artifacts.
 */
export async function publishSummary(
  io: CliIO,
  runDir: string,
  reporters: ReadonlySet<string>,
): Promise<void> {
  const target = io.env.GITHUB_STEP_SUMMARY;
  if (!target || !reporters.has('markdown')) return;
  const markdown = await readFile(join(runDir, 'summary.md'), 'utf8');
  await appendFile(target, `${markdown}\n`);
}

/**
 * The reporters a command that folds stored journals (merge, report, diff) writes into
 * `dir`, printing to its stdout in its colours and width.
 */
export function journalReporters(io: CliIO, dir: string, names: ReadonlySet<string>): Promise<Reporter[]> {
  return createReporters(names, {
    dir,
    // The console report escapes what it quotes itself, and adds its colours.
    write: io.styled.stdout,
    color: io.color,
    ...(io.columns ? { columns: io.columns } : {}),
  });
}
