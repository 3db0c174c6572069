/** One run of the word diff: 0 = in both texts, -1 = only in the baseline, 1 = only in the current text. */
export type DiffOp = [op: -1 | 0 | 1, text: string];

/**
 * Word-level diff of the baseline text against the current one (LCS over word, space
 * and punctuation tokens, after trimming the common prefix and suffix).
 *
 * Self-contained on purpose: the HTML report embeds this function's source in its
 * inline script (`wordDiff.toString()`), so it may use nothing outside its own body.
 * When the changed middle is too large for the LCS table, it returns one deletion and
 * one insertion instead of freezing the page.
 */
export function wordDiff(before: string, after: string, maxCells = 4_000_000): DiffOp[] {
  const pattern = /\s+|[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu;
  const a = before.match(pattern) ?? [];
  const b = after.match(pattern) ?? [];
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const ops: DiffOp[] = [];
  const push = (op: -1 | 0 | 1, text: string): void => {
    if (text === '') return;
    const last = ops[ops.length - 1];
    if (last && last[0] === op) last[1] += text;
    else ops.push([op, text]);
  };
  push(0, a.slice(0, start).join(''));
  const n = endA - start;
  const m = endB - start;
  if (n * m > maxCells) {
    push(-1, a.slice(start, endA).join(''));
    push(1, b.slice(start, endB).join(''));
  } else {
    // lcs[i * (m + 1) + j] = LCS length of a[start + i ..] and b[start + j ..].
    const width = m + 1;
    const lcs = new Uint32Array((n + 1) * width);
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lcs[i * width + j] =
          a[start + i] === b[start + j]
            ? (lcs[(i + 1) * width + j + 1] ?? 0) + 1
            : Math.max(lcs[(i + 1) * width + j] ?? 0, lcs[i * width + j + 1] ?? 0);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && a[start + i] === b[start + j]) {
        push(0, a[start + i] ?? '');
        i++;
        j++;
      } else if (i < n && (j === m || (lcs[(i + 1) * width + j] ?? 0) >= (lcs[i * width + j + 1] ?? 0))) {
        // Deletions before insertions, so a replaced word reads "old → new".
        push(-1, a[start + i] ?? '');
        i++;
      } else {
        push(1, b[start + j] ?? '');
        j++;
      }
    }
  }
  push(0, a.slice(endA).join(''));
  return ops;
}
