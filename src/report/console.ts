import Table from 'cli-table3';
import type { CaseResult, Drift, Report } from '../types.js';
import { isRegressed } from './verdict.js';

export interface ConsoleOptions {
  /** ANSI colours (off when NO_COLOR is set or output is not a terminal). */
  color: boolean;
  /** At most this many case rows in the findings table. */
  maxRows?: number;
}

const VERDICT_TEXT = {
  0: 'PASS — no failure, no regression',
  1: 'FAIL — failures, errors or regressions',
  2: 'ERROR — nothing was sent',
  3: 'PAUSED — budget or credit condition; resume with --resume',
  4: 'STOPPED — authentication or permission failure',
  130: 'INTERRUPTED (SIGINT) — finish it with --resume',
  143: 'INTERRUPTED (SIGTERM) — finish it with --resume',
} as const;

/** The end-of-run summary: counts, then every failing, errored or drifted case with its reason. */
export function renderConsoleSummary(report: Report, options: ConsoleOptions): string {
  const paint = painter(options.color);
  const s = report.summary;
  const counts = new Table({
    head: ['total', 'passed', 'failed', 'errored', 'regressed', 'drifted', 'not run'],
    style: { head: [], border: [] },
  });
  counts.push([s.total, s.passed, s.failed, s.errored, s.regressed, s.drifted, s.not_run]);

  const lines = [`driftcheck run ${report.run.id}`, counts.toString()];
  const findings = report.cases.filter(
    (c) => c.status === 'fail' || c.status === 'error' || c.drift.some(notable),
  );
  findings.sort((a, b) => rank(a) - rank(b));
  const suiteDrift = report.suites.flatMap((suite) =>
    suite.drift.map((d) => ({ suite: suite.suite, drift: d })),
  );
  if (findings.length > 0 || suiteDrift.length > 0) {
    const table = new Table({
      head: ['case', 'status', 'model', 'why'],
      style: { head: [], border: [] },
      colWidths: [34, 9, 30, 60],
      wordWrap: true,
    });
    const max = options.maxRows ?? 50;
    for (const c of findings.slice(0, max)) {
      table.push([
        `${c.suite}/${c.case}${c.repeat > 0 ? `#${c.repeat}` : ''}`,
        paint(statusColor(c), c.status),
        c.model ?? c.requested_model,
        reasons(c),
      ]);
    }
    for (const { suite, drift } of suiteDrift)
      table.push([suite, 'suite', '', `${drift.kind}: ${drift.message}`]);
    lines.push(table.toString());
    if (findings.length > max) lines.push(`… and ${findings.length - max} more (see report.json)`);
  }
  const verdict = VERDICT_TEXT[report.run.exit_code];
  lines.push(
    paint(report.run.exit_code === 0 ? 'green' : 'red', `${verdict} (exit ${report.run.exit_code})`),
  );
  if (report.run.stop_reason)
    lines.push(`stopped on: ${report.run.stop_reason.kind} — ${report.run.stop_reason.message}`);
  return `${lines.join('\n')}\n`;
}

function notable(d: Drift): boolean {
  return d.severity !== 'info';
}

function rank(c: CaseResult): number {
  if (isRegressed(c)) return 0;
  if (c.status === 'error') return 1;
  if (c.status === 'fail') return 2;
  return 3;
}

/** Why a case is listed: the error, the failed checks, then the notable drift. */
export function reasons(c: CaseResult): string {
  const out: string[] = [];
  if (c.error)
    out.push(
      `${c.error.kind}${c.error.http_status ? ` (HTTP ${c.error.http_status})` : ''}: ${c.error.message}`,
    );
  else for (const check of c.checks) if (!check.pass) out.push(`${check.type}: ${check.message}`);
  for (const d of c.drift) if (notable(d) && d.kind !== 'new_error') out.push(d.message);
  return out.join('; ') || 'drift';
}

function statusColor(c: CaseResult): Color {
  if (c.status === 'pass') return isRegressed(c) ? 'red' : 'yellow';
  return c.status === 'not_run' ? 'yellow' : 'red';
}

type Color = 'red' | 'green' | 'yellow';
const CODES: Record<Color, number> = { red: 31, green: 32, yellow: 33 };

function painter(color: boolean): (c: Color, text: string) => string {
  return color ? (c, text) => `\u001b[${CODES[c]}m${text}\u001b[39m` : (_c, text) => text;
}
