import { mdText } from '../report/markdown.js';
import {
  CHANGE_ROW_LABELS,
  changeRowValues,
  costText,
  errorsText,
  anyStreamed,
  latencyText,
  notRunText,
  passRateText,
  servedText,
  toolsText,
  ttftText,
} from './format.js';
import { type ComparisonView, LISTED_REGRESSIONS } from './compare.js';
import type { CandidateSummary } from './types.js';

/**
 * compare.md: short enough for a pull-request comment — one table of the candidates'
 * figures, then each candidate's regressed cases (capped), skipped suites and providers
 * that could not serve. Every text from a run is escaped (mdText). Renders only.
 */
export function renderCompareMarkdown(view: ComparisonView): string {
  const { candidates, reference } = view.head;
  const against =
    reference.kind === 'baseline'
      ? 'the current baseline'
      : `run ${mdText(reference.label)}${reference.run_id && reference.run_id !== reference.label ? ` (${mdText(reference.run_id)})` : ''}`;
  const lines = [
    `## driftcheck compare: ${candidates.length} candidate(s) against ${against}`,
    '',
    `| | ${candidates.map((c) => mdText(c.label)).join(' | ')} |`,
    `|---|${candidates.map(() => '---').join('|')}|`,
    ...rowsFor(candidates).map(([name, f]) => `| ${name} | ${candidates.map((c) => f(c)).join(' | ')} |`),
    '',
    ...candidates.map((c) => `- **${mdText(c.label)}**: ${mdText(c.verdict.line)}`),
    '',
    `${view.cases} case(s). Frontier: the candidates no other beats on both cost and pass rate (★). compare.html beside this file has every case, side by side.`,
  ];
  candidates.forEach((c, i) => {
    const regressed = view.regressed[i]!;
    if (regressed.count === 0) return;
    lines.push('', `**${mdText(c.label)}: ${regressed.count} regressed**`, '');
    for (const row of regressed.rows.slice(0, LISTED_REGRESSIONS)) {
      const note = row.cells[i]!.note;
      lines.push(`- \`${row.id.replace(/`/g, "'")}\`${note ? ` — ${mdText(note, 140)}` : ''}`);
    }
    if (regressed.count > LISTED_REGRESSIONS)
      lines.push(`- … and ${regressed.count - LISTED_REGRESSIONS} more`);
  });
  for (const s of view.head.skipped_suites) {
    const under =
      s.candidates.length === candidates.length
        ? 'every candidate'
        : s.candidates.map((l) => mdText(l)).join(', ');
    lines.push('', `Skipped under ${under}: suite ${mdText(s.suite)} (${mdText(s.reason)})`);
  }
  for (const c of view.head.candidates_not_run) lines.push('', `**Not run:** ${mdText(notRunText(c), 400)}`);
  for (const c of candidates)
    for (const u of c.unserved)
      lines.push(
        '',
        `Provider ${mdText(c.provider ?? c.label)} could not serve ${mdText(u.model)} (suite ${mdText(u.suite)}, ${u.cases} of ${u.total} cases): ${mdText(u.message)}`,
      );
  return `${lines.join('\n')}\n`;
}

const ROWS: [string, (c: CandidateSummary) => string][] = [
  ['pass rate', (c) => passRateText(c)],
  ...CHANGE_ROW_LABELS.map((name, row): [string, (c: CandidateSummary) => string] => [
    name,
    (c) => changeRowValues(c)[row]!,
  ]),
  ['tool calls', (c) => toolsText(c)],
  ['errors', (c) => mdText(errorsText(c))],
  ['tokens', (c) => String(c.tokens.total)],
  ['cost per 1,000 cases', (c) => `${costText(c)}${c.pareto ? ' ★' : ''}`],
  ['latency p50 / p95', (c) => latencyText(c)],
  ['providers', (c) => mdText(servedText(c.providers))],
  ['run', (c) => `\`${c.run_id}\` (exit ${c.exit_code})`],
];

/** The table's rows: time to first token after latency when some candidate streamed. */
function rowsFor(candidates: readonly CandidateSummary[]): typeof ROWS {
  if (!anyStreamed(candidates)) return ROWS;
  const at = ROWS.findIndex(([name]) => name === 'latency p50 / p95') + 1;
  return [...ROWS.slice(0, at), ['time to first token p50 / p95', (c) => ttftText(c)], ...ROWS.slice(at)];
}
