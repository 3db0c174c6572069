import type { Drift, Usage } from '../types.js';
import { similarity } from './similarity.js';

/** Token counts this small swing by a few tokens between identical answers; never flag below it. */
const MIN_TOKEN_CHANGE = 8;

const USAGE_FIELDS = ['completion_tokens', 'total_tokens'] as const;

function percent(from: number, to: number): string {
  if (from === 0) return 'from zero';
  const p = Math.round(((to - from) / from) * 100);
  return `${p > 0 ? '+' : ''}${p}%`;
}

/**
 * usage_changed when completion or total tokens moved by more than `tolerance` of the
 * baseline value and by at least MIN_TOKEN_CHANGE tokens; prompt tokens follow the suite,
 * so they are left to the reviewer.
 */
export function usageDrift(baseline: Usage | null, current: Usage | null, tolerance: number): Drift[] {
  if (baseline === null || current === null) return [];
  const changes: string[] = [];
  for (const field of USAGE_FIELDS) {
    const from = baseline[field];
    const to = current[field];
    if (from === null || to === null || from === undefined || to === undefined) continue;
    const delta = Math.abs(to - from);
    if (delta < MIN_TOKEN_CHANGE) continue;
    if (from > 0 && delta / from <= tolerance) continue;
    changes.push(`${field} ${from} → ${to} (${percent(from, to)})`);
  }
  if (changes.length === 0) return [];
  return [
    {
      kind: 'usage_changed',
      severity: 'warn',
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

/** content_changed when the text differs at all: info while still similar, warn below `threshold`. */
export function contentDrift(baseline: string | null, current: string | null, threshold: number): Drift[] {
  if (baseline === null || current === null || baseline === current) return [];
  const score = round(similarity(baseline, current));
  return [
    {
      kind: 'content_changed',
      severity: score >= threshold ? 'info' : 'warn',
      baseline,
      current,
      similarity: score,
      message: `content changed (similarity ${score.toFixed(2)})`,
    },
  ];
}
