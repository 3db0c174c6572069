import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { compareExit, compareExitReasons } from '../compare/exit.js';
import { type ComparedRun, ComparisonRows, type Reference } from '../compare/compare.js';
import { existsSync } from 'node:fs';
import { baselineReader } from '../stored/baseline/cache.js';
import { foldJournalRun, readComparedRun, runLabel } from '../compare/folded-run.js';
import type { ComparedSide } from '../compare/side.js';
import { compareFolder, writeComparison } from '../compare/write.js';
import { UsageError } from '../util/errors.js';
import { provenanceOf } from '../fold/provenance.js';
import { renderCandidateComparison, unservedProviders } from '../compare/console.js';
import { fitToTerminal } from '../report/terminal.js';
import { baselineReference } from './compare-candidates.js';
import { exitLine } from './exit-line.js';
import type { CliIO } from './io.js';
import { projectPaths } from './project.js';
import { writeRunsIndex } from '../report/runs-index/write.js';

/**
 * `driftcheck compare RUN_DIR… [--reference RUN_DIR] [--out DIR]`: any runs side by side
 * (two nights, or candidate runs made earlier) as compare.html/.json/.md. The reference is
 * `--reference`; without it, runs that are all candidate runs are compared with the
 * baseline each was diffed against when it ran (as `run --models` does), and otherwise the
 * first run given is the reference and the others its candidates.
 */
export async function compareCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { out: { type: 'string' }, reference: { type: 'string' }, 'baseline-dir': { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  const usage =
    'usage: driftcheck compare RUN_DIR… [--reference RUN_DIR] [--out DIR] (run folders under reports/)';
  if (positionals.length === 0) throw new UsageError(usage);
  const dirs = positionals.map((p) => resolve(io.cwd, p).replace(/[/\\]report\.json$/, ''));
  const referenceDir =
    values.reference === undefined
      ? null
      : resolve(io.cwd, values.reference).replace(/[/\\]report\.json$/, '');
  const given = referenceDir ? [referenceDir, ...dirs] : dirs;
  const twice = given.find((d, i) => given.indexOf(d) !== i);
  if (twice) throw new UsageError(`${relative(io.cwd, twice) || '.'} is given twice; compare each run once`);
  const baselineDir = projectPaths(io).dir(values['baseline-dir'], 'baselines');
  const baselines = baselineReader(baselineDir, io.cwd);
  // A run killed before it wrote report.json is folded from its journal, as `report` renders it.
  const read = async (dir: string): Promise<ComparedSide> => {
    if (existsSync(join(dir, 'report.json')) || !existsSync(join(dir, 'results.jsonl')))
      return readComparedRun(dir);
    io.stderr(
      `driftcheck compare: ${relative(io.cwd, dir) || '.'} has no report.json: folded from its journal against today's baselines\n`,
    );
    return foldJournalRun(dir, baselines.read);
  };
  // Each run is read a case at a time into what the comparison keeps of it (spilled to disk
  // past a few thousand cases), and removed from there once the files are written.
  const sides: ComparedSide[] = [];
  try {
    for (const dir of dirs) sides.push(await read(dir));
    const referenceSide = referenceDir ? await read(referenceDir) : null;
    if (referenceSide) sides.push(referenceSide);
    const runs = referenceSide ? sides.slice(0, -1) : sides;
    const allCandidates = runs.every((r) => provenanceOf(r.head!.run).kind === 'candidate');
    let reference: Reference;
    let candidates: ComparedSide[];
    if (referenceSide) {
      reference = { kind: 'run', label: runLabel(referenceSide), side: referenceSide };
      candidates = runs;
    } else if (allCandidates) {
      // The paired verdicts read today's baseline files: the ones these runs were diffed
      // against, unless a baseline was accepted since (then the verdict is against the new one).
      reference = baselineReference(baselineDir);
      candidates = runs;
    } else {
      if (runs.length < 2)
        throw new UsageError(
          `${relative(io.cwd, dirs[0]!) || '.'} is not a candidate run: compare it with another run (driftcheck compare REFERENCE_DIR RUN_DIR), or give --reference RUN_DIR`,
        );
      reference = { kind: 'run', label: runLabel(runs[0]!), side: runs[0]! };
      candidates = runs.slice(1);
    }
    const out = values.out
      ? resolve(io.cwd, values.out)
      : compareFolder(
          dirname(candidates[0]!.dir!),
          candidates.map((c) => c.head!.run.id),
        );
    const { files, view } = await writeComparison(
      out,
      new ComparisonRows(reference, uniqueLabels(candidates)),
    );
    const against =
      reference.kind === 'baseline' ? 'the baseline each ran against' : `run ${reference.label}`;
    const unserved = unservedProviders(view)
      .map((line) => `${line}\n`)
      .join('');
    const columns = io.columns;
    io.stdout(
      `Runs against ${against}:\n${renderCandidateComparison(view, { columns })}${columns ? fitToTerminal(unserved, columns) : unserved}`,
    );
    io.stderr(`compare: ${files.map((f) => relative(io.cwd, f)).join(' · ')}\n`);
    // Written beside the project's runs, it joins their index.
    const reportDir = projectPaths(io).dir(undefined, 'reports');
    if (dirname(out) === reportDir) await writeRunsIndex(reportDir);
    // Compared with nothing, a candidate does not pass (exit 1): say why, and what to give instead.
    for (const c of view.head.candidates)
      if (c.verdict.cases === 0)
        io.stderr(
          `driftcheck compare: ${c.label} shares no case with ${against}: nothing was compared\n  → ${reference.kind === 'baseline' ? 'accept a baseline of its suites first (driftcheck baseline accept RUN_DIR)' : 'compare runs of the same suites and cases'}\n`,
        );
    const code = compareExit(view.head);
    io.stderr(exitLine('compare', code, compareExitReasons(view.head).join('; ')));
    return code;
  } finally {
    for (const side of sides) await side.discard();
  }
}

/** Columns named by their candidate, with the run id added where two would read the same. */
function uniqueLabels(runs: readonly ComparedSide[]): ComparedRun[] {
  const labels = runs.map(runLabel);
  return runs.map((side, i) => ({
    label:
      labels.indexOf(labels[i]!) === labels.lastIndexOf(labels[i]!)
        ? labels[i]!
        : `${labels[i]} (${side.head!.run.id})`,
    side,
  }));
}
