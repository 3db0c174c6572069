import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { FileError, UsageError } from '../util/errors.js';
import { readStored, recheckRun } from './recheck-run.js';
import { storedSelection } from '../run/recheck/selection.js';
import { countOf } from '../util/numbers.js';
import { loadSuites, suiteCasesOf } from '../suite/load.js';
import { HELD_CASES } from './plan-flags.js';
import { exitReason } from '../fold/summary.js';
import { exitLine } from './exit-line.js';
import { type CliIO, warnTo } from './io.js';
import { journalReporters, parseReporters, publishSummary } from './outputs.js';
import { projectPaths } from './project.js';
import { version } from './version.js';
import { writeRunsIndex } from '../report/runs-index/write.js';

/** Items of a not-run or dropped list printed before the rest are counted (the report lists them all). */
const LISTED = 20;

/**
 * `driftcheck recheck RUN_DIR [paths…]`: today's checks and drift rules on a run's stored
 * answers, in a new run folder; nothing is sent, and no baseline is written from it.
 */
export async function recheckCommand(args: string[], io: CliIO): Promise<number> {
  // Refused by name, before the parser's did-you-mean: the answer is why, not a spelling.
  if (args.some((a) => a === '--update-baselines' || a.startsWith('--update-baselines=')))
    throw new UsageError(
      "recheck never updates baselines: its answers are another run's, judged by today's checks\n  → accept the run it rechecks (driftcheck baseline accept RUN_DIR), or run the suites again",
    );
  const { values, positionals } = parseArgs({
    args,
    options: {
      config: { type: 'string' },
      'report-dir': { type: 'string' },
      'baseline-dir': { type: 'string' },
      reporter: { type: 'string' },
      'allow-alias': { type: 'boolean' },
    },
    allowPositionals: true,
    strict: true,
  });
  const [given, ...paths] = positionals;
  if (!given)
    throw new UsageError('usage: driftcheck recheck RUN_DIR [paths…] (a run folder under reports/)');
  const sourceDir = resolve(io.cwd, given);
  const journal = join(sourceDir, 'results.jsonl');
  if (!existsSync(journal))
    throw new FileError(
      journal,
      'no journal (results.jsonl) in this folder: pass a run folder under reports/',
    );
  const project = projectPaths(io, values.config);
  const reportDir = project.dir(values['report-dir'], 'reports');
  const baselineDir = project.dir(values['baseline-dir'], 'baselines');
  const reporters = parseReporters(values.reporter);

  const journalRead = await readStored(journal);
  const stored = await storedSelection(sourceDir, journalRead.record, [...journalRead.run.plans.values()]);
  const selection = paths.length ? { ...stored, paths } : stored;
  // No model catalog is fetched for hints: a recheck sends nothing, not even GET /models.
  const loadOptions = { allowAlias: selection.allow_alias || Boolean(values['allow-alias']), cwd: io.cwd };
  // As a run loads them: a large suite is checked case by case and read again as it is planned.
  const suites = await loadSuites(
    selection.paths.map((p) => resolve(io.cwd, p)),
    { ...loadOptions, onWarnings: warnTo(io, 'recheck'), cases: { hold: HELD_CASES } },
  );
  const result = await recheckRun({
    sourceDir,
    stored: journalRead,
    suites,
    casesOf: suiteCasesOf(loadOptions),
    selection,
    reportDir,
    baselineDir,
    cwd: io.cwd,
    reporters: (dir) => journalReporters(io, dir, reporters),
    command: ['driftcheck', 'recheck', ...args],
    version: version(),
  });
  const { plan, judges, skipped } = result;
  if (skipped.length)
    io.stderr(
      `driftcheck recheck: ${given}: passed over ${skipped.length} unreadable journal line(s) (line ${skipped.slice(0, 5).join(', ')}${skipped.length > 5 ? ', …' : ''})\n`,
    );
  io.stderr(
    `driftcheck: recheck of run ${result.source.id}: ${countOf(result.samples, 'stored answer')} checked again by today's suites, nothing sent → ${relative(io.cwd, result.runDir)}\n`,
  );
  if (judges.kept || judges.needsCall)
    io.stderr(
      `judges: ${judges.kept} verdict(s) kept from run ${result.source.id}${judges.needsCall ? `; ${judges.needsCall} judge check(s) need a call (not evaluated, failing): run the suite to judge them` : ''}\n`,
    );
  listed(
    io,
    `not run: ${countOf(plan.not_answered.length, 'case')} of today's suites with no stored answer`,
    plan.not_answered.map((n) => `${n.case}: ${n.reason}`),
  );
  listed(
    io,
    `dropped: ${countOf(plan.dropped.length, 'case')} with stored answers no longer in today's suites`,
    plan.dropped,
  );
  await publishSummary(io, result.runDir, reporters);
  io.stderr(`report: ${result.files.map((f) => relative(io.cwd, f)).join(' · ')}\n`);
  await writeRunsIndex(reportDir);
  const { run, summary } = result.head;
  io.stderr(exitLine('recheck', run.exit_code, exitReason(run, summary)));
  return run.exit_code;
}

function listed(io: CliIO, title: string, items: readonly string[]): void {
  if (items.length === 0) return;
  const more =
    items.length > LISTED ? [`… and ${items.length - LISTED} more (report.json: run.recheck)`] : [];
  io.stderr(`${title}\n${[...items.slice(0, LISTED), ...more].map((i) => `  ${i}\n`).join('')}`);
}
