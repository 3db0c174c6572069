import type { CheckResult } from './registry.js';
import { type CompiledPattern, compilePattern } from '../util/pattern.js';
import type { CheckContext } from './registry.js';
import { excerptAround, quote } from './quote.js';

/** `/pattern/flags` literal form; anything else is a bare pattern with no flags. */
const LITERAL = /^\/([\s\S]+)\/([a-z]*)$/;

/**
 * Parses a regex expectation, `/pattern/flags` or a bare pattern, into a pattern matched in
 * linear time (util/pattern.ts, which also keeps each compiled once), or why it cannot be.
 */
export function parseRegex(value: string): CompiledPattern {
  const literal = LITERAL.exec(value);
  const [source, flags] = literal ? [literal[1] ?? '', literal[2] ?? ''] : [value, ''];
  return compilePattern(source, flags);
}

/** `regex`: a search anywhere in the content (anchor with ^…$ to match the whole), in linear time. */
export function checkRegex(value: string, { completion: c }: CheckContext): CheckResult {
  const parsed = parseRegex(value);
  if ('error' in parsed)
    return { type: 'regex', pass: false, message: `invalid regex ${quote(value)}: ${parsed.error}` };
  const { pattern } = parsed;
  const match = pattern.search(c.content);
  if (match) {
    return {
      type: 'regex',
      pass: true,
      message: `matches ${pattern.text} at ${excerptAround(c.content, match.index, match.length)}`,
    };
  }
  return {
    type: 'regex',
    pass: false,
    message: `expected content to match ${pattern.text}, got ${quote(c.content)}`,
  };
}
