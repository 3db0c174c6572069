import type { CheckResult } from '../types.js';
import type { CheckContext } from './registry.js';
import { excerptAround, quote } from './quote.js';

/** `/pattern/flags` literal form; anything else is a bare pattern with no flags. */
const LITERAL = /^\/([\s\S]+)\/([a-z]*)$/;

/** Parses a regex expectation: `/pattern/flags` or a bare pattern. Returns the compile error as text. */
export function parseRegex(value: string): { regex: RegExp } | { error: string } {
  const literal = LITERAL.exec(value);
  const [source, flags] = literal ? [literal[1] ?? '', literal[2] ?? ''] : [value, ''];
  try {
    return { regex: new RegExp(source, flags) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Patterns compiled so far: a case's regex is checked on every sample of it, and a suite's
 * cases often share one, so each is compiled once rather than once per sample. Bounded (a
 * table may give every row its own pattern): past the bound it starts over.
 */
const compiled = new Map<string, ReturnType<typeof parseRegex>>();
const MAX_COMPILED = 1024;

function compiledRegex(value: string): ReturnType<typeof parseRegex> {
  let parsed = compiled.get(value);
  if (parsed === undefined) {
    if (compiled.size >= MAX_COMPILED) compiled.clear();
    compiled.set(value, (parsed = parseRegex(value)));
  }
  return parsed;
}

/** `regex`: JS RegExp search anywhere in the content (anchor with ^…$ to match the whole). */
export function checkRegex(value: string, { completion: c }: CheckContext): CheckResult {
  const parsed = compiledRegex(value);
  if ('error' in parsed)
    return { type: 'regex', pass: false, message: `invalid regex ${quote(value)}: ${parsed.error}` };
  // The RegExp is shared: a `g`/`y` flag's lastIndex must not carry over from the last answer.
  parsed.regex.lastIndex = 0;
  const match = parsed.regex.exec(c.content);
  if (match) {
    return {
      type: 'regex',
      pass: true,
      message: `matches ${parsed.regex} at ${excerptAround(c.content, match.index, match[0].length)}`,
    };
  }
  return {
    type: 'regex',
    pass: false,
    message: `expected content to match ${parsed.regex}, got ${quote(c.content)}`,
  };
}
