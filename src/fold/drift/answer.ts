import { extractJson } from '../../checks/extract-json.js';
import { type Drift, severityOf } from '../../record/drift-kinds.js';
import type { Usage } from '../../core/answer.js';
import { canonicalJson, compareJson, listJsonChanges } from '../../util/json-compare.js';
import { normalizeContent } from './normalize.js';
import { similarity } from '../../util/similarity.js';
import { DEFAULT_TOLERANCE, type ResolvedTolerance } from './tolerance.js';
import { type UsageLimits, usageChanges } from '../../record/usage-change.js';

type ContentRules = ResolvedTolerance['content'];

/**
 * usage_changed when completion tokens, total tokens or cost moved beyond their tolerance
 * (see usageChanges for the floors); prompt tokens follow the suite, so they are left to the
 * reviewer. A number applies to both token fields and the cost (the old single tolerance).
 */
export function usageDrift(
  baseline: Usage | null,
  current: Usage | null,
  tolerance: number | UsageLimits = DEFAULT_TOLERANCE.usage,
): Drift[] {
  if (baseline === null || current === null) return [];
  const limits =
    typeof tolerance === 'number'
      ? { completion_tokens: tolerance, total_tokens: tolerance, cost: tolerance }
      : tolerance;
  const changes = usageChanges(baseline, current, limits);
  if (changes.length === 0) return [];
  return [
    {
      kind: 'usage_changed',
      severity: severityOf('usage_changed'),
      baseline,
      current,
      message: `usage changed: ${changes.join(', ')}`,
    },
  ];
}

/** Similarity scores are stored rounded, so reports and their diffs stay stable across platforms. */
function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/**
 * content_changed when the answer differs beyond what the rules ignore: info while the
 * similarity stays at or above the threshold, warn below it. JSON answers are compared
 * structurally (see jsonSides) and the message lists the values that changed; `baseline`
 * and `current` stay the two answer texts, which reporters diff word by word.
 * A number is the similarity threshold with no normalisation (the old signature).
 */
export function contentDrift(
  baseline: string | null,
  current: string | null,
  rules: number | ContentRules = DEFAULT_TOLERANCE.content,
): Drift[] {
  if (baseline === null || current === null || baseline === current) return [];
  const r: ContentRules =
    typeof rules === 'number' ? { ...DEFAULT_TOLERANCE.content, similarity: rules } : rules;
  const drift = (score: number, what: string): Drift[] => [
    {
      kind: 'content_changed',
      severity: severityOf('content_changed', { beyond: score < r.similarity }),
      baseline,
      current,
      similarity: score,
      message: `content changed${what} (similarity ${score.toFixed(2)})`,
    },
  ];
  const sides = jsonSides(baseline, current, r.json);
  if (sides.kind === 'json') {
    const changes = compareJson(sides.baseline, sides.current);
    if (changes.length === 0) return [];
    const score = round(similarity(canonicalJson(sides.baseline), canonicalJson(sides.current)));
    return drift(score, `: ${listJsonChanges(changes)}`);
  }
  const a = normalizeContent(baseline, r.normalize);
  const b = normalizeContent(current, r.normalize);
  if (a === b) return [];
  const score = round(similarity(a, b));
  return drift(score, sides.kind === 'lost' ? `: the answer is no longer JSON (${sides.error})` : '');
}

type Sides =
  | { kind: 'json'; baseline: unknown; current: unknown }
  | { kind: 'text' }
  /** `json: true` and the baseline was JSON, the answer is not. */
  | { kind: 'lost'; error: string };

/**
 * Whether to compare two answers as JSON. `auto` takes only answers that are JSON objects
 * or arrays as a whole or in a code fence (prose with a `[1]` in it stays prose); `true`
 * also takes JSON embedded in prose, and flags an answer that stopped being JSON.
 */
function jsonSides(baseline: string, current: string, mode: ContentRules['json']): Sides {
  if (mode === false) return { kind: 'text' };
  const a = extractJson(baseline);
  const b = extractJson(current);
  if (mode === true) {
    if ('value' in a && 'value' in b) return { kind: 'json', baseline: a.value, current: b.value };
    if ('value' in a && 'error' in b) return { kind: 'lost', error: b.error };
    return { kind: 'text' };
  }
  const structured = (x: typeof a): x is { value: object; source: 'whole content' | 'code fence' } =>
    'value' in x && x.source !== 'embedded in text' && typeof x.value === 'object' && x.value !== null;
  return structured(a) && structured(b)
    ? { kind: 'json', baseline: a.value, current: b.value }
    : { kind: 'text' };
}
