import { mdText } from '../report/markdown.js';
import { costText, errorsText, latencyText, passRateText, servedText, toolsText } from './format.js';
import type { CandidateSummary, Comparison } from './types.js';

/** Regressed cases listed per candidate; the rest are counted (compare.html lists them all). */
const LISTED_REGRESSIONS = 10;

/**
 * compare.md: short enough for a pull-request comment — one table of the candidates'
 * figures, then each candidate's regressed cases (capped), skipped suites and providers
 * that could not serve. Every text from a run is escaped (mdText). Renders only.
 */
export function renderCompareMarkdown(comparison: Comparison): string {
  const { candidates, reference } = comparison;
  const against =
    reference.kind === 'baseline'
      ? 'the current baseline'
      : `run ${mdText(reference.label)}${reference.run_id && reference.run_id !== reference.label ? ` (${mdText(reference.run_id)})` : ''}`;
  const lines = [
    `## driftcheck compare: ${candidates.length} candidate(s) against ${against}`,
    '',
    `| | ${candidates.map((c) => mdText(c.label)).join(' | ')} |`,
    `|---|${candidates.map(() => '---').join('|')}|`,
    ...ROWS.map(([name, f]) => `| ${name} | ${candidates.map((c) => f(c)).join(' | ')} |`),
    '',
    ...candidates.map((c) => `- **${mdText(c.label)}**: ${mdText(c.verdict.line)}`),
    '',
    `${comparison.cases.length} case(s). Frontier: the candidates no other beats on both cost and pass rate (★). compare.html beside this file has every case, side by side.`,
  ];
  for (const c of candidates) {
    const regressed = comparison.cases.filter(
      (row) => row.cells[candidates.indexOf(c)]!.change === 'regressed',
    );
    if (regressed.length === 0) continue;
    lines.push('', `**${mdText(c.label)}: ${regressed.length} regressed**`, '');
    const i = candidates.indexOf(c);
    for (const row of regressed.slice(0, LISTED_REGRESSIONS)) {
      const note = row.cells[i]!.note;
      lines.push(`- \`${row.id.replace(/`/g, "'")}\`${note ? ` — ${mdText(note, 140)}` : ''}`);
    }
    if (regressed.length > LISTED_REGRESSIONS)
      lines.push(`- … and ${regressed.length - LISTED_REGRESSIONS} more`);
  }
  for (const s of comparison.skipped_suites) {
    const under =
      s.candidates.length === candidates.length
        ? 'every candidate'
        : s.candidates.map((l) => mdText(l)).join(', ');
    lines.push('', `Skipped under ${under}: suite ${mdText(s.suite)} (${mdText(s.reason)})`);
  }
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
  [
    'regressed · fixed · changed',
    (c) => `${c.changes.regressed} · ${c.changes.fixed} · ${c.changes.changed}`,
  ],
  ['not run · skipped', (c) => `${c.changes.not_run} · ${c.changes.skipped}`],
  ['tool calls', (c) => toolsText(c)],
  ['errors', (c) => mdText(errorsText(c))],
  ['tokens', (c) => String(c.tokens.total)],
  ['cost per 1,000 cases', (c) => `${costText(c)}${c.pareto ? ' ★' : ''}`],
  ['latency p50 / p95', (c) => latencyText(c)],
  ['providers', (c) => mdText(servedText(c.providers))],
  ['run', (c) => `\`${c.run_id}\` (exit ${c.exit_code})`],
];
