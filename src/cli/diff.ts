import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import Table from 'cli-table3';
import { baselineFromResults } from '../baseline/build.js';
import { diffSuite } from '../baseline/diff.js';
import { UsageError } from '../errors.js';
import type { CaseResult, Drift, Report } from '../types.js';
import type { CliIO } from './io.js';
import { readReportAt } from './report-file.js';

/** One case of B compared with the same case (by suite + id, never by position) of A. */
export interface ReportDiffRow {
  key: string;
  a: CaseResult | null;
  b: CaseResult | null;
  drift: Drift[];
}

/**
 * Compares two stored runs case by case, treating A as the baseline of B: the same drift
 * rules as a run against baselines/.
 */
export function diffReports(a: Report, b: Report): ReportDiffRow[] {
  const rows: ReportDiffRow[] = [];
  const suites = [...new Set([...a.cases, ...b.cases].map((c) => c.suite))].sort();
  for (const suite of suites) {
    const aCases = a.cases.filter((c) => c.suite === suite && c.status !== 'not_run');
    const bCases = b.cases.filter((c) => c.suite === suite);
    const info = a.suites.find((s) => s.suite === suite);
    const baseline = aCases.length
      ? baselineFromResults({
          suite,
          service: info?.service ?? '',
          model: info?.requested_model ?? '',
          run_id: a.run.id,
          results: aCases,
          previous: null,
        })
      : null;
    const { byKey, suiteDrift } = diffSuite({ suite, results: bCases, baseline, complete: true });
    for (const c of bCases) {
      rows.push({
        key: c.key,
        a: aCases.find((x) => x.case === c.case && x.repeat === c.repeat) ?? null,
        b: c,
        drift: byKey.get(c.key) ?? [],
      });
    }
    for (const d of suiteDrift) {
      const caseId = String(
        d.baseline && typeof d.baseline === 'object' && 'case' in d.baseline
          ? (d.baseline as { case: unknown }).case
          : d.message,
      );
      rows.push({
        key: `${suite}/${caseId}`,
        a: aCases.find((x) => x.case === caseId) ?? null,
        b: null,
        drift: [d],
      });
    }
  }
  return rows;
}

/** `driftcheck diff REPORT_A REPORT_B`. Exit 1 when B regressed against A. */
export async function diffCommand(args: string[], io: CliIO): Promise<number> {
  const { positionals } = parseArgs({ args, options: {}, allowPositionals: true, strict: true });
  if (positionals.length !== 2)
    throw new UsageError('usage: driftcheck diff REPORT_A REPORT_B (run folders or report.json files)');
  const [a, b] = await Promise.all(positionals.map((p) => readReportAt(resolve(io.cwd, p))));
  const rows = diffReports(a!, b!);
  const changed = rows.filter((r) => r.drift.length > 0);
  const table = new Table({
    head: ['case', a!.run.id, b!.run.id, 'drift'],
    style: { head: [], border: [] },
    colWidths: [36, 24, 24, 60],
    wordWrap: true,
  });
  for (const row of changed) {
    table.push([
      row.key,
      cell(row.a),
      cell(row.b),
      row.drift.map((d) => `${d.kind} (${d.severity}): ${d.message}`).join('\n'),
    ]);
  }
  io.stdout(`${changed.length} of ${rows.length} case(s) differ\n`);
  if (changed.length) io.stdout(`${table.toString()}\n`);
  return rows.some((r) => r.drift.some((d) => d.severity === 'fail')) ? 1 : 0;
}

function cell(c: CaseResult | null): string {
  if (!c) return '—';
  return `${c.status}${c.error ? ` (${c.error.kind})` : ''} ${c.model ?? ''}`.trim();
}
