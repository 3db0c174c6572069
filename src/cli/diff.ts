import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { removedIfKilled } from '../util/scratch.js';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { writeBaselinesOf } from '../baseline/accept.js';
import { SuiteBaseline } from '../stored/baseline/suite-baseline.js';
import { FileError, UsageError } from '../util/errors.js';
import { foldRunDirs } from '../fold/run-dirs.js';
import { CHANGE_WORDS, statusWord } from '../core/words.js';
import { exitLine } from './exit-line.js';
import { journalMessages, promptsMissingTo } from '../run/plan-messages.js';
import { openReport } from '../stored/report/read.js';
import { isFsError } from '../yaml/read-text.js';
import type { Reporter } from '../fold/reporter.js';
import { truncate, wrap } from '../report/terminal.js';
import type { CaseEntry } from '../stored/report/types.js';
import type { Drift } from '../record/drift-kinds.js';
import type { CliIO } from './io.js';
import { projectPaths } from './project.js';
import { journalReporters, parseReporters } from './outputs.js';

/** `driftcheck diff RUN_A RUN_B [--reporter console,json,html,…] [--out DIR]`. Exit 1 when B regressed against A. */
export async function diffCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { reporter: { type: 'string' }, out: { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length !== 2) {
    throw new UsageError('usage: driftcheck diff RUN_A RUN_B [--reporter LIST] [--out DIR] (run folders)');
  }
  // With --out and no --reporter, every report is written there; without --out, the table only.
  const names = parseReporters(values.reporter ?? (values.out ? undefined : 'console'));
  const [dirA, dirB] = positionals.map((p) => resolve(io.cwd, p).replace(/[/\\]report\.json$/, ''));
  const a = await openReport(dirA!);
  const b = await openReport(dirB!);
  // A's answers become the baselines B is folded against: the same drift rules, pass-rate
  // tests and verdict as a run against baselines/. They are written a case at a time to a
  // folder of their own and read back as a run reads its baselines, so neither run's cases
  // are held together (diffing two 100,000-case runs held both: 675 MB).
  const baselineDir = await mkdtemp(join(tmpdir(), 'driftcheck-diff-'));
  const release = removedIfKilled(baselineDir);
  // What is wrong with a file of that folder is wrong with run A's report.json, its source
  // (a suite id no file may be named after, in a report.json edited by hand); the file
  // system's own failures (a full disk) name the file they failed on.
  const fromA = (error: unknown): never => {
    if (error instanceof FileError && error.file !== a.file && !isFsError(error.cause))
      throw new FileError(
        a.file,
        `${error.reason}\n  → re-render it from its run's journal (driftcheck report ${relative(io.cwd, dirA!) || '.'}), or diff another run`,
        { cause: error },
      );
    throw error;
  };
  const suitesOfA = new Set(a.head.suites.map((s) => s.suite));
  try {
    await writeBaselinesOf(baselineDir, a, { over: false }).catch(fromA);
    const table = diffTable(a.head.run.id, b.head.run.id);
    // The table's reporter always counts (what B holds of A); it is printed with console only.
    const reporters: Reporter[] = [table.reporter];
    const files = [...names].filter((r) => r !== 'console');
    const outDir = projectPaths(io).dir(
      values.out,
      join('reports', `diff-${a.head.run.id}-${b.head.run.id}`),
    );
    if (files.length) {
      await mkdir(outDir, { recursive: true });
      reporters.push(...(await journalReporters(io, outDir, new Set(files))));
    }
    const folded = await foldRunDirs([dirB!], {
      // A suite A did not send has no file there: no baseline.
      baseline: async (suite) => ({
        baseline: suitesOfA.has(suite) ? await SuiteBaseline.read(baselineDir, suite).catch(fromA) : null,
        path: `run ${a.head.run.id}`,
      }),
      reporters,
      complete: true,
      renderedBy: 'diff',
      messages: journalMessages(
        io.cwd,
        promptsMissingTo((line) => io.stderr(line), 'driftcheck diff'),
      ),
      run: {
        id: `${a.head.run.id}..${b.head.run.id}`,
        command: ['driftcheck', 'diff', a.head.run.id, b.head.run.id],
        candidate_model: b.head.run.candidate_model,
        candidate_provider: b.head.run.candidate_provider ?? null,
      },
    });
    // A's cases B does not hold (another selection, a suite B did not run): missing from B,
    // not compared (compare's `missing`), and said so; a missing case does not fail the diff.
    const inB = new Set(folded.head.suites.map((s) => s.suite));
    const absentSuites = a.head.suites.filter((s) => !inB.has(s.suite) && s.cases > 0).map((s) => s.suite);
    const missing = a.head.suites.reduce(
      (n, s) => n + Math.max(0, s.cases - (table.matched.get(s.suite) ?? 0)),
      0,
    );
    const missingNote =
      missing > 0
        ? `${missing} case(s) of ${a.head.run.id} ${CHANGE_WORDS.missing} from ${b.head.run.id}, not compared${absentSuites.length ? ` (${absentSuites.length === 1 ? 'suite' : 'suites'} ${absentSuites.join(', ')} did not run there)` : ''}\n`
        : '';
    if (names.has('console'))
      io.stdout(`${table.render(folded.head.summary.cases, io.columns ?? 100)}${missingNote}`);
    else if (missingNote) io.stderr(`driftcheck diff: ${missingNote}`);
    if (files.length) io.stderr(`diff: ${folded.files.map((f) => relative(io.cwd, f)).join(' · ')}\n`);
    const s = folded.head.summary;
    const code = s.regressed + s.suite_regressed > 0 ? 1 : 0;
    const findings = s.suite_regressed > 0 ? `; ${s.suite_regressed} failing suite finding(s)` : '';
    io.stderr(
      exitLine(
        'diff',
        code,
        `${s.regressed} of ${s.cases} case(s) ${CHANGE_WORDS.regressed} in ${b.head.run.id} against ${a.head.run.id}${findings}`,
      ),
    );
    return code;
  } finally {
    await rm(baselineDir, { recursive: true, force: true });
    release();
  }
}

/** The console view of a diff: every case that differs (bounded), and suite-level findings. */
function diffTable(aId: string, bId: string) {
  const changed: CaseEntry[] = [];
  let count = 0;
  const suiteDrift: { suite: string; d: Drift }[] = [];
  /** Per suite, B's cases that A has (every case but a new one): A's others are missing from B. */
  const matched = new Map<string, number>();
  const reporter: Reporter = {
    onCase({ entry: c }) {
      if (!c.drift.some((d) => d.kind === 'new_case')) matched.set(c.suite, (matched.get(c.suite) ?? 0) + 1);
      if (!c.drift.some((d) => d.kind !== 'new_case')) return;
      count++;
      if (changed.length < 200) changed.push(c);
    },
    onSuiteEnd({ suite }) {
      for (const d of suite.drift) suiteDrift.push({ suite: suite.suite, d });
    },
  };
  const render = (total: number, columns: number): string => {
    const lines = [
      `${count} of ${total} case(s) differ in ${bId} against ${aId}${suiteDrift.length ? `, ${suiteDrift.length} suite-level finding(s)` : ''}`,
    ];
    for (const c of changed) {
      lines.push(
        truncate(
          `${c.id} · ${statusWord(c)}${c.error ? ` (${c.error.kind})` : ''} · ${c.model ?? ''}`,
          columns,
        ),
      );
      for (const d of c.drift)
        lines.push(...wrap(`${d.kind} (${d.severity}): ${d.message}`, columns, '    '));
    }
    if (count > changed.length)
      lines.push(`… and ${count - changed.length} more (see report.json with --out)`);
    for (const { suite, d } of suiteDrift)
      lines.push(...wrap(`${suite} (suite) ${d.kind} (${d.severity}): ${d.message}`, columns));
    return `${lines.join('\n')}\n`;
  };
  return { reporter, render, matched };
}
