/** Small text helpers for the simulator's deterministic answers. Pure and allocation-light. */

const STOPWORDS = new Set(
  (
    'about above after again also among an and any are because been before being below between both but by can ' +
    'could did does doing done each every few for from give had has have having her here hers him his how into ' +
    'its just like make many more most much must need only other our ours out over please same shall she should ' +
    'show some such tell than that the their them then there these they this those through under until upon very ' +
    'want was were what when where which while who whom whose why will with would you your yours know explain ' +
    'describe question answer reply respond briefly short sentence sentences word words work works'
  ).split(' '),
);

/** FNV-1a, 32 bit: fast, stable across runs and platforms. */
export function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Picks one item of a non-empty list by a hash value. */
export function pick<T>(items: readonly T[], h: number): T {
  return items[h % items.length]!;
}

/** Content words of a prompt, in order of first use, lower-cased. */
export function keywords(text: string, max = 4): string[] {
  const out: string[] = [];
  for (const raw of text.toLowerCase().match(/[a-z][a-z'-]*/g) ?? []) {
    const word = raw.replace(/'s$/, '').replace(/^'+|'+$/g, '');
    if (word.length < 4 || STOPWORDS.has(word) || out.includes(word)) continue;
    out.push(word);
    if (out.length === max) break;
  }
  return out;
}

/** A word's first five letters, so "refunds" and "refund" meet. */
export function stem(word: string): string {
  return word.toLowerCase().slice(0, 5);
}

/** Sentences of a text (split on ., !, ? and line breaks), trimmed, non-empty. */
export function sentences(text: string): string[] {
  return (text.match(/[^.!?\n]+[.!?]*/g) ?? []).map((s) => s.trim()).filter((s) => s.length > 0);
}

export function capitalize(text: string): string {
  return text.length === 0 ? text : text[0]!.toUpperCase() + text.slice(1);
}

/** "a", "a and b", "a, b and c". */
export function joinWords(words: readonly string[]): string {
  if (words.length <= 1) return words[0] ?? '';
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

/** Naive English singular: enough for "list 3 fruits" → "fruit". */
export function singular(word: string): string {
  if (/ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (/(ch|sh|x|ss)es$/.test(word)) return word.slice(0, -2);
  if (/[^s]s$/.test(word)) return word.slice(0, -1);
  return word;
}

const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
const ORDINALS = [
  'First',
  'Second',
  'Third',
  'Fourth',
  'Fifth',
  'Sixth',
  'Seventh',
  'Eighth',
  'Ninth',
  'Tenth',
];

/** "3" or "three" → 3; anything else → NaN. */
export function parseCount(text: string): number {
  const index = NUMBER_WORDS.indexOf(text.toLowerCase());
  return index >= 0 ? index : Number.parseInt(text, 10);
}

export function ordinal(n: number): string {
  return ORDINALS[n - 1] ?? `Item ${n}:`;
}
