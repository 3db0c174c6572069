import { mkdir } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { baselineFromEntries } from '../baseline/build.js';
import { UsageError } from '../errors.js';
import { foldRunDirs } from '../fold/run-dirs.js';
import { journalMessages, promptsMissingTo } from '../run/plan-messages.js';
import { openReport, type StoredReport } from '../report/read.js';
import type { Reporter } from '../report/reporter.js';
import { truncate, wrap } from '../report/terminal.js';
import type { Baseline, CaseEntry, Drift } from '../types.js';
import type { CliIO } from './io.js';
import { projectPaths } from './project.js';
import { journalReporters, parseReporters } from './outputs.js';

/**
 * A's answers as the baselines of B, one per suite: the same drift rules, pass-rate tests
 * and verdict as a run against baselines/.
 */
async function baselinesOf(a: StoredReport): Promise<Map<string, Baseline>> {
  const bySuite = new Map<string, CaseEntry[]>();
  for await (const c of a.cases()) {
    if (c.samples.sent === 0) continue;
    const list = bySuite.get(c.suite);
    if (list) list.push(c);
    else bySuite.set(c.suite, [c]);
  }
  const baselines = new Map<string, Baseline>();
  for (const info of a.head.suites) {
    const cases = bySuite.get(info.suite);
    if (!cases) continue;
    baselines.set(
      info.suite,
      baselineFromEntries({
        suite: info.suite,
        service: info.service,
        model: info.requested_model,
        run_id: a.head.run.id,
        cases,
        previous: null,
      }),
    );
  }
  return baselines;
}

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
  const baselines = await baselinesOf(a);
  const table = diffTable(a.head.run.id, b.head.run.id);
  const reporters: Reporter[] = names.has('console') ? [table.reporter] : [];
  const files = [...names].filter((r) => r !== 'console');
  const outDir = projectPaths(io).dir(values.out, join('reports', `diff-${a.head.run.id}-${b.head.run.id}`));
  if (files.length) {
    await mkdir(outDir, { recursive: true });
    reporters.push(...(await journalReporters(io, outDir, new Set(files))));
  }
  const folded = await foldRunDirs([dirB!], {
    baseline: async (suite) => ({ baseline: baselines.get(suite) ?? null, path: `run ${a.head.run.id}` }),
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
  if (names.has('console')) io.stdout(table.render(folded.head.summary.cases, io.columns ?? 100));
  if (files.length) io.stderr(`diff: ${folded.files.map((f) => relative(io.cwd, f)).join(' · ')}\n`);
  const s = folded.head.summary;
  return s.regressed + s.suite_regressed > 0 ? 1 : 0;
}

/** The console view of a diff: every case that differs (bounded), and suite-level findings. */
function diffTable(aId: string, bId: string) {
  const changed: CaseEntry[] = [];
  let count = 0;
  const suiteDrift: { suite: string; d: Drift }[] = [];
  const reporter: Reporter = {
    onCase({ entry: c }) {
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
        truncate(`${c.id} · ${c.status}${c.error ? ` (${c.error.kind})` : ''} · ${c.model ?? ''}`, columns),
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
  return { reporter, render };
}
