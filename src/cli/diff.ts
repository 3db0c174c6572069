import { mkdir } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import Table from 'cli-table3';
import { baselineFromResults } from '../baseline/build.js';
import { UsageError } from '../errors.js';
import { buildReport } from '../report/build.js';
import { writeReportFiles } from '../report/outputs.js';
import type { Baseline, CaseResult, Report } from '../types.js';
import type { CliIO } from './io.js';
import { parseReporters } from './outputs.js';
import { readReportAt } from './report-file.js';

/**
 * Compares two stored runs case by case (suite + id, never position), treating A as the
 * baseline of B: the same drift rules, pass-rate tests and verdict as a run against
 * baselines/. Pure.
 */
export function diffReports(a: Report, b: Report): Report {
  const baselines = new Map<string, { baseline: Baseline | null; path: string }>();
  for (const suite of new Set(b.cases.map((c) => c.suite))) {
    const results = a.cases.filter((c) => c.suite === suite && c.status !== 'not_run');
    const info = a.suites.find((s) => s.suite === suite);
    const baseline = results.length
      ? baselineFromResults({
          suite,
          service: info?.service ?? '',
          model: info?.requested_model ?? '',
          run_id: a.run.id,
          results,
          previous: null,
        })
      : null;
    baselines.set(suite, { baseline, path: `run ${a.run.id}` });
  }
  return buildReport({
    run: { ...b.run, id: `${a.run.id}..${b.run.id}`, command: ['driftcheck', 'diff', a.run.id, b.run.id] },
    stop: null,
    suites: b.suites.map((s) => ({
      suite: s.suite,
      file: s.file,
      service: s.service,
      model: s.requested_model,
    })),
    results: b.cases.map((c) => ({ ...c, drift: [] })),
    baselines,
    complete: true,
    diff: { candidate: a.run.candidate_model !== b.run.candidate_model },
  });
}

/** `driftcheck diff REPORT_A REPORT_B [--reporter console,json,html,…] [--out DIR]`. Exit 1 when B regressed against A. */
export async function diffCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { reporter: { type: 'string' }, out: { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length !== 2) {
    throw new UsageError(
      'usage: driftcheck diff REPORT_A REPORT_B [--reporter LIST] [--out DIR] (run folders or report.json files)',
    );
  }
  const reporters = parseReporters(values.reporter ?? 'console');
  const [a, b] = await Promise.all(positionals.map((p) => readReportAt(resolve(io.cwd, p))));
  const report = diffReports(a!, b!);
  if (reporters.has('console')) io.stdout(renderDiffTable(report, a!.run.id, b!.run.id));
  const files = [...reporters].filter((r) => r !== 'console');
  if (files.length) {
    const outDir = resolve(io.cwd, values.out ?? join('reports', `diff-${a!.run.id}-${b!.run.id}`));
    await mkdir(outDir, { recursive: true });
    const written = await writeReportFiles(outDir, report, new Set(files), (t) => t);
    io.stderr(`diff: ${written.map((f) => relative(io.cwd, f)).join(' · ')}\n`);
  }
  return report.cases.some((c) => c.drift.some((d) => d.severity === 'fail')) ||
    report.suites.some((s) => s.drift.some((d) => d.severity === 'fail'))
    ? 1
    : 0;
}

function renderDiffTable(report: Report, aId: string, bId: string): string {
  const changed = report.cases.filter((c) => c.drift.some((d) => d.kind !== 'new_case'));
  const suiteDrift = report.suites.flatMap((s) => s.drift.map((d) => ({ suite: s.suite, d })));
  const table = new Table({
    head: ['case', `${bId} (against ${aId})`, 'drift'],
    style: { head: [], border: [] },
    colWidths: [36, 30, 70],
    wordWrap: true,
  });
  for (const c of changed)
    table.push([c.key, cell(c), c.drift.map((d) => `${d.kind} (${d.severity}): ${d.message}`).join('\n')]);
  for (const { suite, d } of suiteDrift)
    table.push([suite, 'suite', `${d.kind} (${d.severity}): ${d.message}`]);
  const total = report.cases.length;
  const head = `${changed.length} of ${total} case(s) differ${suiteDrift.length ? `, ${suiteDrift.length} suite-level finding(s)` : ''}\n`;
  return changed.length || suiteDrift.length ? `${head}${table.toString()}\n` : head;
}

function cell(c: CaseResult): string {
  return `${c.status}${c.error ? ` (${c.error.kind})` : ''} ${c.model ?? ''}`.trim();
}
