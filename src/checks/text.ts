import type { CheckResult } from './registry.js';
import type { CheckContext } from './registry.js';
import { excerptAround, quote } from './quote.js';

/**
 * Case folding for `icontains`: upper-then-lower approximates Unicode full case folding
 * (ß → ss, ﬁ → fi), the final-sigma rule is undone so ς and σ match, and NFC makes
 * precomposed and combining forms (é vs e + ◌́) compare equal.
 */
export function foldCase(text: string): string {
  return text.normalize('NFC').toUpperCase().toLowerCase().replace(/ς/g, 'σ').normalize('NFC');
}

/** `contains`: case-sensitive substring. */
export function checkContains(value: string, { completion: c }: CheckContext): CheckResult {
  const pass = c.content.includes(value);
  return {
    type: 'contains',
    pass,
    message: pass
      ? `contains ${quote(value)}`
      : `expected content to contain ${quote(value)}, got ${quote(c.content)}`,
  };
}

/** `not_contains`: case-sensitive substring must be absent; the failure shows where it was found. */
export function checkNotContains(value: string, { completion: c }: CheckContext): CheckResult {
  const at = c.content.indexOf(value);
  const pass = at < 0;
  return {
    type: 'not_contains',
    pass,
    message: pass
      ? `does not contain ${quote(value)}`
      : `expected content not to contain ${quote(value)}, found at ${excerptAround(c.content, at, value.length)}`,
  };
}

/** `icontains`: substring after Unicode-aware case folding (see foldCase). */
export function checkIcontains(value: string, { completion: c }: CheckContext): CheckResult {
  const pass = foldCase(c.content).includes(foldCase(value));
  return {
    type: 'icontains',
    pass,
    message: pass
      ? `contains ${quote(value)} (ignoring case)`
      : `expected content to contain ${quote(value)} (ignoring case), got ${quote(c.content)}`,
  };
}

/**
 * `equals`: exact comparison after trimming surrounding whitespace on both sides, because
 * models routinely add a trailing newline that no suite author means to test.
 */
export function checkEquals(value: string, { completion: c }: CheckContext): CheckResult {
  const expected = value.trim();
  const actual = c.content.trim();
  const pass = actual === expected;
  return {
    type: 'equals',
    pass,
    message: pass
      ? `equals ${quote(expected)}`
      : `expected content to equal ${quote(expected)}, got ${quote(actual)}`,
  };
}

/** `finish_reason`: exact match of the completion's finish reason. */
export function checkFinishReason(value: string, { completion: c }: CheckContext): CheckResult {
  const pass = c.finish_reason === value;
  const actual = c.finish_reason === null ? 'none' : quote(c.finish_reason);
  return {
    type: 'finish_reason',
    pass,
    message: pass
      ? `finish_reason is ${quote(value)}`
      : `expected finish_reason ${quote(value)}, got ${actual}`,
  };
}

/** `non_empty: true` wants non-whitespace content; `non_empty: false` wants blank content. */
export function checkNonEmpty(value: boolean, { completion: c }: CheckContext): CheckResult {
  const nonEmpty = c.content.trim() !== '';
  const pass = nonEmpty === value;
  let message: string;
  if (pass) message = value ? 'content is not empty' : 'content is empty';
  else
    message = value
      ? 'expected non-empty content, got only whitespace'
      : `expected empty content, got ${quote(c.content)}`;
  return { type: 'non_empty', pass, message };
}

/** `max_completion_tokens`: usage.completion_tokens must be reported and at most the value. */
export function checkMaxCompletionTokens(value: number, { completion: c }: CheckContext): CheckResult {
  const used = c.usage?.completion_tokens ?? null;
  if (used === null) {
    const why = c.usage === null ? 'the response carried no usage' : 'usage had no completion_tokens';
    return {
      type: 'max_completion_tokens',
      pass: false,
      message: `cannot check ≤ ${value} completion tokens: ${why}`,
    };
  }
  const pass = used <= value;
  return {
    type: 'max_completion_tokens',
    pass,
    message: pass
      ? `${used} completion tokens ≤ ${value}`
      : `expected at most ${value} completion tokens, got ${used}`,
  };
}
