/** Words (letters/digits in any script) and single punctuation marks; whitespace only separates. */
const TOKEN = /[\p{L}\p{N}\p{M}]+|[^\s\p{L}\p{N}\p{M}]/gu;

/** Word unigrams and bigrams as a multiset: unigrams catch vocabulary, bigrams catch reordering. */
function grams(text: string): Map<string, number> {
  const tokens = text.toLowerCase().match(TOKEN) ?? [];
  const counts = new Map<string, number>();
  const add = (gram: string): void => {
    counts.set(gram, (counts.get(gram) ?? 0) + 1);
  };
  for (let i = 0; i < tokens.length; i++) {
    add(`1 ${tokens[i]}`);
    if (i > 0) add(`2 ${tokens[i - 1]} ${tokens[i]}`);
  }
  return counts;
}

/**
 * How alike two model answers are, 0 (nothing shared) to 1 (same words in the same order):
 * the Sørensen–Dice coefficient over the multiset of lower-cased word unigrams and bigrams.
 * Linear in the text length (one pass, hash maps), so 10 KB answers cost well under a millisecond,
 * and symmetric by construction. Whitespace and case differences alone score 1.
 */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  const ga = grams(a);
  const gb = grams(b);
  let sizeA = 0;
  let sizeB = 0;
  for (const n of ga.values()) sizeA += n;
  for (const n of gb.values()) sizeB += n;
  if (sizeA === 0 && sizeB === 0) return 1;
  if (sizeA === 0 || sizeB === 0) return 0;
  let shared = 0;
  const [small, large] = ga.size <= gb.size ? [ga, gb] : [gb, ga];
  for (const [gram, n] of small) shared += Math.min(n, large.get(gram) ?? 0);
  return (2 * shared) / (sizeA + sizeB);
}
