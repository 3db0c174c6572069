import { formatUsd } from '../util/numbers.js';
import { renderedExitCode } from '../fold/summary.js';
import { COUNT_WORDS, statusWord } from '../core/words.js';
import type { CaseEntry, Report, ReportHead } from '../stored/report/types.js';
import type { Drift } from '../record/drift-kinds.js';
import { type FoldedCase, publishReport } from '../fold/published.js';
import { countOf as classCount, REVIEW_ORDER, type ReviewClass, Shortlist } from '../fold/review.js';
import type { Totals } from '../fold/totals.js';
import { errorLine } from '../fold/conversation.js';
import { printable } from '../util/printable.js';
import { historyLine } from './history-strip.js';
import { countOf } from '../util/numbers.js';
import type { Reporter } from '../fold/reporter.js';
import { truncate, width, wrap, wrapItems } from './terminal.js';
import { recheckNote } from './recheck-note.js';
import { exitsForModelStops, MODEL_STOP_VERDICT, modelStopNote } from './model-stop-note.js';
import { bailNote } from './bail-note.js';
import { unjudgedNote } from './unjudged-note.js';

export interface ConsoleOptions {
  /** ANSI colours (the CLI decides: FORCE_COLOR, NO_COLOR, a terminal; see colorFor in cli/io.ts). */
  color: boolean;
  /** At most this many case rows (default 50). */
  maxRows?: number;
  /** Terminal width; every line fits it (default 100 when output is not a terminal). */
  columns?: number;
}

const VERDICT_TEXT = {
  0: 'PASS — no failure, no regression',
  1: 'FAIL — failures, errors or regressions',
  2: 'ERROR — a configuration problem stopped the run (see above)',
  3: 'PAUSED — budget or credit condition; resume with --resume',
  4: 'STOPPED — authentication or permission failure',
  130: 'INTERRUPTED (SIGINT) — finish it with --resume',
  143: 'INTERRUPTED (SIGTERM) — finish it with --resume',
  137: 'KILLED — no end record (kill -9, out of memory, a crash); finish it with --resume',
} as const;

/** The review classes the console lists, one line a case, in the fold's order (fold/review.ts). */
const LISTED: readonly ReviewClass[] = ['regressed', 'errored', 'failed', 'drift_warn'];

/** Cases kept for the console while a run is folded: the first of each listed class, bounded. */
export class ConsoleFindings {
  readonly cases: Shortlist<ReviewClass, FoldedCase>;
  constructor(keep = 200) {
    this.cases = new Shortlist(REVIEW_ORDER, keep);
  }

  add(c: FoldedCase): void {
    if (LISTED.includes(c.review)) this.cases.add(c.review, c);
  }
}

/** The end-of-run summary: counts, then one line per failing, errored or drifted case with why. */
export function renderConsoleSummary(report: Report, options: ConsoleOptions): string {
  const published = publishReport(report);
  const found = new ConsoleFindings();
  for (const c of published.cases) found.add(c);
  return renderConsoleFindings(published.head, published.totals, found, options);
}

/**
 * The summary from findings collected as suites were folded (see consoleReporter) and the
 * run's totals. Its colours are its own escapes, so it is printed as is: every piece that
 * came from a service or a file (ids, models, messages) goes through printable here, before
 * it is fitted.
 */
export function renderConsoleFindings(
  report: ReportHead,
  totals: Totals,
  found: ConsoleFindings,
  options: ConsoleOptions,
): string {
  const paint = painter(options.color);
  const columns = Math.max(40, options.columns ?? 100);
  const s = report.summary;
  const counts = [
    countOf(s.cases, 'case'),
    ...(['passed', 'failed', 'errored', 'not_run', 'regressed', 'drifted'] as const).map(
      (k) => `${s[k]} ${COUNT_WORDS[k]}`,
    ),
    countOf(s.samples, 'sample'),
    ...(totals.cost !== null ? [`cost ${formatUsd(totals.cost)}`] : []),
  ];
  const lines = [
    truncate(printable(`driftcheck run ${report.run.id}`), columns),
    ...wrapItems(counts, columns),
    // A candidate runs only the suites of its kind of service: the others are listed, not errored.
    ...(report.run.skipped_suites ?? []).flatMap((x) =>
      wrap(printable(`skipped suite ${x.suite}: ${x.reason}`), columns),
    ),
    // A recheck sent nothing: said before any verdict, with what it could not check.
    ...(report.run.recheck ? wrap(printable(recheckNote(report.run.recheck)!), columns) : []),
    ...(report.run.bail ? wrap(bailNote(report.run.bail, s)!, columns) : []),
    ...(report.run.unjudged_steps ? wrap(unjudgedNote(report.run.unjudged_steps)!, columns) : []),
  ];
  const rows = found.cases.worstFirst().slice(0, options.maxRows ?? 50);
  const listed = classCount(totals.review, LISTED);
  const suiteDrift = report.suites.flatMap((suite) =>
    suite.drift.map((d) => ({ suite: suite.suite, drift: d })),
  );
  if (rows.length > 0 || suiteDrift.length > 0) lines.push('');
  for (const c of rows) lines.push(...caseLines(c, columns, paint));
  for (const { suite, drift } of suiteDrift) {
    const head = printable(`${drift.severity === 'fail' ? '✗' : '!'} ${suite} (suite) ${drift.kind}`);
    lines.push(
      paint(drift.severity === 'fail' ? 'red' : 'yellow', truncate(head, columns)),
      ...wrap(printable(drift.message), columns, '    '),
    );
  }
  if (listed > rows.length) lines.push(`… and ${listed - rows.length} more (see report.json)`);
  const verdict = exitsForModelStops(report.run)
    ? `ERROR — ${MODEL_STOP_VERDICT} (see below)`
    : VERDICT_TEXT[report.run.exit_code];
  // `report` of a run a signal (or a kill) stopped exits by what it rendered, not by the
  // run's recorded code: both are said, and why they differ (README, Exit codes).
  const code = report.run.exit_code;
  const rendered = report.run.provenance?.rendered_by === 'report' ? renderedExitCode(report.run, s) : code;
  lines.push(
    ...wrap(`${verdict} (${rendered === code ? `exit ${code}` : `recorded exit ${code}`})`, columns).map(
      (l) => paint(code === 0 ? 'green' : 'red', l),
    ),
  );
  if (rendered !== code)
    lines.push(
      ...wrap(
        `driftcheck report exits ${rendered}: ${rendered === 1 ? 'a case the run finished fails' : 'the run is unfinished and no case it finished fails'} (${code} stays the run's own exit_code in report.json)`,
        columns,
      ),
    );
  if (report.run.stop_reason)
    lines.push(
      ...wrap(
        printable(`stopped on: ${report.run.stop_reason.kind} — ${report.run.stop_reason.message}`),
        columns,
      ),
    );
  for (const stop of report.run.model_stops ?? [])
    lines.push(...wrap(printable(modelStopNote(stop)), columns));
  return `${lines.join('\n')}\n`;
}

/**
 * One case of a listed class: a head line (mark, id, status, samples, model) cut to the
 * width, then why, wrapped under it. Drift to review is marked `!`, the rest `✗`.
 */
function caseLines({ entry: c, review }: FoldedCase, columns: number, paint: Paint): string[] {
  const mark = review === 'drift_warn' ? '!' : '✗';
  const samples = samplesLabel(c);
  const tail = printable(
    ` ${statusWord(c)}${samples ? ` ${samples}` : ''} · ${c.model ?? c.requested_model}`,
  );
  const id = printable(`${mark} ${c.id}`);
  const head = width(id) + width(tail) <= columns ? `${id}${tail}` : truncate(`${id}${tail}`, columns);
  const history = historyLine(c.history);
  return [
    // Drift to review, and a case not sent, in yellow; what fails the run in red.
    paint(review === 'drift_warn' || c.status === 'not_run' ? 'yellow' : 'red', head),
    ...wrap(printable(reasons(c, review)), columns, '    '),
    ...(history ? wrap(printable(history), columns, '    ') : []),
  ];
}

/** `9/10` for a repeated case (passing samples of those sent), empty for one sample. */
export function samplesLabel(c: CaseEntry): string {
  return c.samples.sent > 1 ? `${c.samples.passed}/${c.samples.sent}` : '';
}

function notable(d: Drift): boolean {
  return d.severity !== 'info';
}

/** Why a case of this review class is listed: the error, the failed checks, then the notable drift. */
export function reasons(c: CaseEntry, review: ReviewClass): string {
  const out: string[] = [];
  // A conversation's error names the turn and step it stopped at (errorLine).
  const error = errorLine(c);
  if (error !== null) out.push(error);
  else {
    const sent = c.samples.sent;
    // A repeated case that fails with no failing drift fails on its own samples, not on the
    // baseline test (failsRun): say so, or "stable" beside it reads as a pass.
    if (review === 'failed' && c.pass_rate)
      out.push(`fails its expectations: ${c.samples.passed}/${sent} samples pass (fewer than half)`);
    c.checks.forEach((check, i) => {
      const passes = c.check_passes[i] ?? (check.pass ? 1 : 0);
      if (sent > 1 && passes < sent) out.push(`${check.type}: ${sent - passes}/${sent} samples fail`);
      else if (sent <= 1 && !check.pass) out.push(`${check.type}: ${check.message}`);
    });
  }
  for (const d of c.drift) if (notable(d) && d.kind !== 'new_error') out.push(d.message);
  return out.join('; ') || 'drift';
}

/** Prints the summary at the end of a run, from findings kept as suites are folded. */
export function consoleReporter(write: (text: string) => void, options: ConsoleOptions): Reporter {
  const found = new ConsoleFindings();
  return {
    onCase(c) {
      found.add(c);
    },
    async onEnd(head, totals) {
      write(renderConsoleFindings(head, totals, found, options));
      return [];
    },
  };
}

type Color = 'red' | 'green' | 'yellow';
type Paint = (c: Color, text: string) => string;
const CODES: Record<Color, number> = { red: 31, green: 32, yellow: 33 };

function painter(color: boolean): Paint {
  return color ? (c, text) => `\u001b[${CODES[c]}m${text}\u001b[39m` : (_c, text) => text;
}
