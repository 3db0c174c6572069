import Table from 'cli-table3';
import { formatUsd } from '../util/numbers.js';
import type { ComparisonView } from './compare.js';
import { anyStreamed, CHANGE_ROW_LABELS, changeRowValues } from './format.js';
import type { CandidateCell } from './types.js';
import { notRunText } from './format.js';
import { CHANGE_WORDS, STATUS_WORDS } from '../core/words.js';
import { fitToTerminal, width } from '../report/terminal.js';

/**
 * Side by side, one column per candidate: each case's outcome against the reference
 * (regressed, fixed, changed, same), then the totals compareRuns made and each run's exit
 * code; under the table, each candidate's paired verdict, one line each. Renders only:
 * every count is the comparison's, and the rows shown are its first notable ones. With
 * `columns` (a terminal's width) every line fits it: the columns share the width, a cell
 * wraps inside its column, more candidates than fit go to a second table, and the lines
 * under the tables wrap at spaces.
 */
export function renderCandidateComparison(
  view: ComparisonView,
  options: { maxRows?: number; columns?: number } = {},
): string {
  const { candidates } = view.head;
  const interesting = view.notable;
  const shown = interesting.rows.slice(0, options.maxRows ?? interesting.rows.length);
  const rows: string[][] = [
    ...shown.map((row) => [row.id, ...row.cells.map(cell)]),
    ['passed / total', ...candidates.map((c) => `${c.passed} / ${c.cases}`)],
    ...CHANGE_ROW_LABELS.map((label, row) => [label, ...candidates.map((c) => changeRowValues(c)[row]!)]),
    ['tokens', ...candidates.map((c) => String(c.tokens.total))],
    ['cost', ...candidates.map((c) => (c.cost.total === null ? '—' : formatUsd(c.cost.total)))],
    // Beside the cost, when some candidate streamed: its median time to first token.
    ...(anyStreamed(candidates)
      ? [['time to first token p50', ...candidates.map((c) => (c.ttft_ms ? `${c.ttft_ms.p50} ms` : '—'))]]
      : []),
    ['run', ...candidates.map((c) => `exit ${c.exit_code}`)],
  ];
  const head = ['case', ...candidates.map((c) => c.label)];
  const tables = sideBySide(head, rows, options.columns);
  const more =
    interesting.count > shown.length
      ? `\n… and ${interesting.count - shown.length} more changed case(s) (see each report)`
      : '';
  const total = view.cases;
  const same = total - interesting.count;
  const skipped = view.head.skipped_suites.map(({ suite, reason, candidates: labels }) => {
    const under = labels.length === candidates.length ? 'every candidate' : labels.join(', ');
    return `skipped under ${under}: suite ${suite} (${reason})\n`;
  });
  const verdicts = candidates.map((c) => `${c.label}: ${c.verdict.line}\n`).join('');
  const notRun = view.head.candidates_not_run.map((c) => `not run: ${notRunText(c)}\n`).join('');
  // Cases the comparison has and a candidate's run does not: never compared, and said so.
  const missing = candidates
    .filter((c) => c.changes.missing > 0)
    .map(
      (c) => `${c.label}: ${c.changes.missing} case(s) ${CHANGE_WORDS.missing} from its run, not compared\n`,
    );
  const under = `${verdicts}${same} of ${total} case(s) pass with no notable change under every candidate that ran them\n${missing.join('')}${skipped.join('')}${notRun}`;
  return `${tables}${more}\n${options.columns ? fitToTerminal(under, options.columns) : under}`;
}

/** A cell's narrowest column (text), and the case column's. */
const MIN_CELL = 10;
const MIN_CASE = 12;

/**
 * The table, or tables, of `head` over `rows`: at its natural width when that fits
 * `columns` (or no width is given), else with the case column and the candidates' columns
 * sharing the width, as many candidates a table as fit.
 */
function sideBySide(head: string[], rows: string[][], columns: number | undefined): string {
  const natural = head.map((h, i) => Math.max(width(h), ...rows.map((r) => width(r[i] ?? ''))));
  // Each column adds a space either side and a border.
  const tableWidth = (widths: readonly number[]) => widths.reduce((n, w) => n + w + 3, 1);
  if (columns === undefined || tableWidth(natural) <= columns) return draw(head, rows, null);
  // As many tables as needed, the candidates spread evenly over them (6 at 4 a table: 3 and 3).
  const fits = Math.max(1, Math.floor((columns - 1 - (MIN_CASE + 3)) / (MIN_CELL + 3)));
  const perTable = Math.ceil((head.length - 1) / Math.ceil((head.length - 1) / fits));
  const out: string[] = [];
  for (let first = 1; first < head.length; first += perTable) {
    const picked = [
      0,
      ...Array.from({ length: Math.min(perTable, head.length - first) }, (_, i) => first + i),
    ];
    out.push(
      draw(
        picked.map((i) => head[i]!),
        rows.map((r) => picked.map((i) => r[i] ?? '')),
        shareWidth(
          picked.map((i) => natural[i]!),
          columns - 1 - 3 * picked.length,
        ),
      ),
    );
  }
  return out.join('\n');
}

/**
 * Text widths for the columns within `room`: from their natural widths, the widest column
 * gives up a column at a time (never below its least) until they fit, so a narrow column
 * keeps its text on one line and the long ones wrap.
 */
function shareWidth(natural: readonly number[], room: number): number[] {
  const widths = [...natural];
  const least = (i: number) => (i === 0 ? MIN_CASE : MIN_CELL);
  let total = widths.reduce((n, w) => n + w, 0);
  while (total > room) {
    let widest = -1;
    widths.forEach((w, i) => {
      if (w > least(i) && (widest < 0 || w > widths[widest]!)) widest = i;
    });
    if (widest < 0) break;
    widths[widest]!--;
    total--;
  }
  return widths;
}

/** cli-table3 over pre-wrapped cells (long words cut, ids broken after their `/`), or its natural layout. */
function draw(head: string[], rows: string[][], widths: number[] | null): string {
  const fit = (text: string, i: number) => (widths ? wrapCell(text, widths[i]!) : text);
  const table = new Table({
    head: head.map(fit),
    style: { head: [], border: [] },
    ...(widths ? { colWidths: widths.map((w) => w + 2), wordWrap: false } : {}),
  });
  for (const row of rows) table.push(row.map(fit));
  return table.toString();
}

/** A cell's text in lines of at most `room` columns: at spaces, after a `/`, else cut. */
function wrapCell(text: string, room: number): string {
  if (width(text) <= room) return text;
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean))
    // `support-demo/refund-window` may break after its `/`.
    word.split(/(?<=\/)(?=.)/).forEach((piece, i) => {
      const next = `${line}${i === 0 && line ? ' ' : ''}${piece}`;
      if (width(next) <= room) {
        line = next;
        return;
      }
      if (line) lines.push(line);
      line = piece;
      while (width(line) > room) {
        let head = '';
        for (const ch of line) {
          if (width(head + ch) > room) break;
          head += ch;
        }
        lines.push(head);
        line = line.slice(head.length);
      }
    });
  if (line) lines.push(line);
  return lines.join('\n');
}

/**
 * Providers that could not serve a suite's model: their cases got the router's "no
 * provider meets your routing requirements" (`routing`) instead of an answer. One line per
 * provider and suite, with the router's words.
 */
export function unservedProviders(view: ComparisonView): string[] {
  return view.head.candidates.flatMap((c) =>
    c.unserved.map(
      (u) =>
        `provider ${c.provider ?? c.label} could not serve ${u.model} (suite ${u.suite}, ${u.cases} of ${u.total} cases): ${u.message}`,
    ),
  );
}

/** A cell in the words module's words: the status, then what changed against the reference. */
function cell(c: CandidateCell): string {
  if (c.status === null) return CHANGE_WORDS[c.change];
  if (c.status === 'error') return `error (${c.error_kind})`;
  if (c.change === 'regressed') return `${CHANGE_WORDS.regressed.toUpperCase()} (${STATUS_WORDS[c.status]})`;
  if (c.change === 'fixed') return CHANGE_WORDS.fixed;
  if (c.status === 'not_run') return STATUS_WORDS.not_run;
  const base = STATUS_WORDS[c.status];
  if (c.change !== 'changed') return base;
  const changed = CHANGE_WORDS.changed;
  return c.similarity !== null ? `${base}, ${changed} ${c.similarity.toFixed(2)}` : `${base}, ${changed}`;
}
