/** Edit distance (insert, delete, substitute) between two short strings such as YAML keys. */
export function levenshtein(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * Picks the allowed key a misspelt one most likely meant, for an unknown-key hint:
 * within edit distance 2, or one is a prefix of the other (`exp`, `expects`).
 */
export function didYouMean(word: string, candidates: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  let best: { candidate: string; score: number } | undefined;
  for (const candidate of candidates) {
    const target = candidate.toLowerCase();
    const distance = levenshtein(lower, target);
    const prefix = lower.length >= 2 && (target.startsWith(lower) || lower.startsWith(target));
    if (distance > 2 && !prefix) continue;
    // A prefix match counts as close, but an exact-ish spelling still wins ties.
    const score = prefix ? Math.min(distance, 2) : distance;
    if (!best || score < best.score) best = { candidate, score };
  }
  return best?.candidate;
}
