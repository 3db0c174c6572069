/**
 * V8's JSON.parse message without the echoed input, and the offset in `source` it names:
 * Node 20 says "… in JSON at position 12", later versions "… (line 1 column 13)", and the
 * end of the input is where "Unexpected end of JSON input" happened (0 when it names none).
 */
export function describeJsonError(error: unknown, source: string): { message: string; offset: number } {
  const text = error instanceof Error ? error.message : String(error);
  const position = /at position (\d+)/.exec(text);
  const lineColumn = /\(line (\d+) column (\d+)\)/.exec(text);
  const offset = position
    ? Number(position[1])
    : lineColumn
      ? offsetOf(source, Number(lineColumn[1]), Number(lineColumn[2]))
      : text.includes('Unexpected end of JSON input')
        ? source.length
        : 0;
  const message = text
    .replace(/, "[\s\S]*" is not valid JSON$/, '')
    .replace(/ in JSON at position \d+.*$/, '')
    .replace(/ \(line \d+ column \d+\)$/, '');
  return { message, offset };
}

/** Where a 1-based line and column are in `source`. */
function offsetOf(source: string, line: number, column: number): number {
  let at = 0;
  for (let l = 1; l < line; l++) {
    const next = source.indexOf('\n', at);
    if (next < 0) break;
    at = next + 1;
  }
  return at + column - 1;
}

/** The 1-based line and column of an offset in `source`. */
export function lineColumnOf(source: string, offset: number): { line: number; column: number } {
  const before = source.slice(0, Math.min(offset, source.length));
  const line = before.split('\n').length;
  return { line, column: offset - (before.lastIndexOf('\n') + 1) + 1 };
}
