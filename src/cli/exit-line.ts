/**
 * The line a command that exits non-zero ends with on stderr, whatever its reporters
 * printed: `driftcheck report: exit 3 — why`. Nothing for exit 0 (or with no reason known).
 */
export function exitLine(command: string, code: number, reason: string | null): string {
  return code === 0 || reason === null ? '' : `driftcheck ${command}: exit ${code} — ${reason}\n`;
}
