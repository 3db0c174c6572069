import { load } from 'js-yaml';
import { YAML_CORE_SCHEMA } from './core-schema.js';
import { MAX_DEPTH } from './plain-data.js';

/**
 * The fast reader for suites and configs: js-yaml's public `load` (loading 100,000
 * cases: about 0.4 s, against 8 s and 340 MB peak for the `yaml` package's documents).
 * It takes only plain YAML whose data both readers agree on; anything else — or any
 * file with a diagnostic — goes to the full path (`yaml`), which gives every position
 * and diagnostic. Returns null to say "use the full path"; it never reports a problem.
 */
export function fastRead(source: string): Record<string, unknown> | null {
  // A byte-order mark or a directive shifts what the full path reports.
  if (source.charCodeAt(0) === 0xfeff || /^%/m.test(source) || NOT_PLAIN.test(source)) return null;
  let data: unknown;
  try {
    data = load(source, {
      schema: YAML_CORE_SCHEMA,
      onWarning: () => {
        throw new Error('declined');
      },
    });
  } catch {
    return null; // a syntax error, a duplicate key, several documents: the full path says which
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  return withinDepth(data, 1) ? (data as Record<string, unknown>) : null;
}

/**
 * What the full path reads differently, or refuses with a diagnostic: anchors and
 * aliases (`&a`, `*a`), tags (`!x`), merge keys (`<<:`), complex keys (`? `, `[a]:`),
 * null keys and `__proto__`. Matched on the raw text, so a prompt that merely contains such
 * characters after a space also goes to the full path: slower, never wrong.
 */
const NOT_PLAIN =
  /(?:^|[\s[{,])(?:[&*!][^\s,\]}]|<<\s*:|\?(?:\s|$)|(?:~|[Nn]ull|NULL)?\s*:(?:\s|$))|[\]}][ \t]*:(?:\s|$)|__proto__/m;

/** No deeper than the full path allows (it reports deeper data); scalars count as a level. */
function withinDepth(value: object, depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  for (const child of Object.values(value)) {
    if (typeof child === 'object' && child !== null) {
      if (!withinDepth(child as object, depth + 1)) return false;
    } else if (depth + 1 > MAX_DEPTH) return false;
  }
  return true;
}
