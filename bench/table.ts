/** Prints rows as a plain text table, each column as wide as its widest cell (the bench's figures). */
export function printTable(header: string[], cells: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]): string => c.map((x, i) => x.padEnd(widths[i]!)).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const c of cells) console.log(line(c));
}
