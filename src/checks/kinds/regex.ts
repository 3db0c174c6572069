import { checkRegex, parseRegex } from '../regex.js';
import type { CheckDefinition } from '../registry.js';
import { knownSound, rememberSound } from '../../util/verdict-cache.js';

/** `regex`: Passes when a JavaScript regular expression matches the answer. */
export const regex: CheckDefinition<string> = {
  schema: {
    type: 'string',
    minLength: 1,
    title: 'Content matches a regular expression',
    description:
      "A JavaScript regular expression, bare (`refund.*30`) or as /pattern/flags (`/refund/i`), matched in linear time (RE2): lookarounds and backreferences are refused. Quote it in YAML when it contains ': ' or starts with a special character.",
    examples: ['/\\b30 days\\b/i'],
  },
  parse: (value) => String(value),
  problems: (value, where) => {
    if (typeof value !== 'string' || value === '') return [];
    // A pattern an earlier command found sound is not compiled again (util/verdict-cache.ts).
    if (knownSound('regex', value)) return [];
    const parsed = parseRegex(value);
    if (!('error' in parsed)) {
      rememberSound('regex', value);
      return [];
    }
    return [
      {
        pointer: '',
        // A valid pattern linear-time matching cannot run says why in its own words.
        message: parsed.hint
          ? `'${where}': ${parsed.error}`
          : `'${where}' is not a valid regular expression: ${parsed.error}`,
        hint:
          parsed.hint ??
          'write a JavaScript pattern, bare (refund.*30) or as /pattern/flags; quote it in YAML',
      },
    ];
  },
  run: checkRegex,
};
