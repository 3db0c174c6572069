/**
 * Edit distance counting a swap of two neighbours as one edit (optimal string alignment):
 * the commonest typos, `lsit` for `list` or `modle` for `model`, are one edit away.
 */
export function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j]!, before[j - 2]! + 1);
    }
    [before, prev] = [prev, row];
  }
  return prev[b.length]!;
}

/**
 * The candidate a misspelt word (a YAML key, a command, a flag, a service name) most likely
 * meant, ignoring case: within an edit distance of a third of the word (at least 2), or one
 * is a prefix of the other (`exp`, `expects`). A closer spelling wins over a prefix.
 */
export function didYouMean(word: string, candidates: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  const limit = Math.max(2, Math.floor(word.length / 3));
  let best: { candidate: string; score: number } | undefined;
  for (const candidate of candidates) {
    const target = candidate.toLowerCase();
    const distance = editDistance(lower, target);
    const prefix = lower.length >= 2 && (target.startsWith(lower) || lower.startsWith(target));
    if (distance > limit && !prefix) continue;
    const score = prefix ? Math.min(distance, limit) : distance;
    if (!best || score < best.score) best = { candidate, score };
  }
  return best?.candidate;
}
