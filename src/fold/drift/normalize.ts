import { foldCase } from '../../checks/text.js';
import type { ContentNormalization } from '../../suite/types.js';

const WHITESPACE = /\s+/gu;
const PUNCTUATION = /\p{P}+/gu;

/**
 * The text a content comparison sees after `normalize:`: `whitespace` trims and collapses
 * runs to one space, `case` folds case (Unicode-aware, as `icontains` does), `punctuation`
 * drops punctuation marks. Order of the list does not matter.
 */
export function normalizeContent(text: string, modes: readonly ContentNormalization[]): string {
  let out = text;
  if (modes.includes('case')) out = foldCase(out);
  // Before whitespace, so "30 days ." and "30 days." end up the same.
  if (modes.includes('punctuation')) out = out.replace(PUNCTUATION, '');
  if (modes.includes('whitespace')) out = out.replace(WHITESPACE, ' ').trim();
  return out;
}
