import type { YAMLError } from 'yaml';

/** A YAML syntax error as a user should see it: where to look, what happened, what to do. */
export interface SyntaxProblem {
  offset: number;
  message: string;
  hint?: string;
}

/**
 * Positions and words a YAML parser error. An unclosed quote is reported where it was
 * opened (the parser only notices at the end of the file); running out of stack on
 * deep nesting is named for what it is.
 */
export function describeSyntaxError(text: string, error: YAMLError): SyntaxProblem {
  const at = error.pos[0];
  const message = `YAML syntax error: ${error.message}`;
  if (error.code === 'RESOURCE_EXHAUSTION') {
    return {
      offset: at,
      message: 'YAML nests too deeply to read (brackets or indentation hundreds of levels deep)',
      hint: 'flatten it; suites and configs are read by people',
    };
  }
  if (error.code === 'MISSING_CHAR' && /closing (["'])quote/.test(error.message)) {
    const quote = /closing "quote/.test(error.message) ? '"' : "'";
    const opened = openingQuote(text, at, quote);
    if (opened !== null) {
      return {
        offset: opened,
        message: `${message} (the quote opened here is never closed)`,
        hint: `add the closing ${quote}; a ${quote} inside the value is written ${quote === '"' ? '\\"' : "''"}`,
      };
    }
  }
  return { offset: at, message, hint: hintFor(error.code) };
}

/**
 * The quote that opened a scalar still open at `end`. Inside it only escaped quotes
 * occur (`\"` in double quotes, `''` in single quotes), so it is the last unescaped one.
 */
function openingQuote(text: string, end: number, quote: '"' | "'"): number | null {
  for (let i = Math.min(end, text.length) - 1; i >= 0; i--) {
    if (text[i] !== quote) continue;
    if (quote === "'") {
      if (text[i - 1] === "'") {
        i -= 1; // an escaped '' pair
        continue;
      }
      return i;
    }
    let backslashes = 0;
    while (text[i - 1 - backslashes] === '\\') backslashes += 1;
    if (backslashes % 2 === 0) return i;
  }
  return null;
}

function hintFor(code: string): string | undefined {
  switch (code) {
    case 'DUPLICATE_KEY':
      return 'remove one of the two keys';
    case 'TAB_AS_INDENT':
      return 'indent with spaces, not tabs';
    case 'BAD_INDENT':
    case 'MISSING_CHAR':
    case 'UNEXPECTED_TOKEN':
      return 'check the indentation and quoting on this line; quote values that contain ": " or start with a special character';
    default:
      return undefined;
  }
}
