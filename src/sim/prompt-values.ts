import { keywords, stem } from './words.js';

/**
 * The values a prompt offers to fill a schema with, each kind taken in order of appearance
 * and used once (a cursor per kind), so "from Paris to Lyon" fills `from` and `to` with two
 * different names. Built once per answer; pure apart from its cursors.
 */
export class PromptValues {
  private readonly quoted: string[];
  private readonly names: string[];
  private readonly numbers: number[];
  private readonly taken = { quoted: 0, names: 0, numbers: new Set<number>() };
  /** Content words that do not describe the tool itself: what the request is about. */
  readonly topic: string;
  readonly text: string;
  private readonly stems: Set<string>;

  /** `about`: the tool's own name and description, whose words are not taken as values. */
  constructor(text: string, about = '') {
    this.text = text;
    this.quoted = [...text.matchAll(/"([^"]+)"|“([^”]+)”|`([^`]+)`|(?<![A-Za-z])'([^']+)'(?![A-Za-z])/g)].map(
      (m) => (m[1] ?? m[2] ?? m[3] ?? m[4] ?? '').trim(),
    );
    this.names = properNames(text);
    this.numbers = [...text.matchAll(/(?<![\w.])-?\d+(?:\.\d+)?(?![\w.]*\d)/g)].map((m) => Number(m[0]));
    const own = new Set(wordsOf(about).map(stem));
    this.topic = keywords(text, 50)
      .filter((w) => !own.has(stem(w)))
      .join(' ');
    this.stems = new Set(wordsOf(text).map(stem));
  }

  /** The next quoted phrase, else the next proper name, else null. */
  nextPhrase(): string | null {
    if (this.taken.quoted < this.quoted.length) return this.quoted[this.taken.quoted++]!;
    if (this.taken.names < this.names.length) return this.names[this.taken.names++]!;
    return null;
  }

  /** Every phrase and word of the prompt, for a pattern to pick from. */
  candidates(): string[] {
    return [...this.quoted, ...this.names, ...(this.text.match(/[^\s,;:!?()"“”]+/g) ?? [])];
  }

  /** The first unused number of the prompt that `fits`; null when none does. */
  nextNumber(fits: (n: number) => boolean): number | null {
    for (const [i, n] of this.numbers.entries()) {
      if (this.taken.numbers.has(i) || !fits(n)) continue;
      this.taken.numbers.add(i);
      return n;
    }
    return null;
  }

  /** Whether the prompt uses every word of `name` (split at _ - and camelCase), by stem. */
  mentions(name: string): boolean {
    const words = wordsOf(name).filter((w) => w.length >= 3);
    return words.length > 0 && words.every((w) => this.stems.has(stem(w)));
  }

  /** An option named in the prompt (whole word, any case), or null. */
  option<T>(options: readonly T[]): T | null {
    const text = this.text.toLowerCase();
    const named = (word: string) => {
      for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
        if (!WORD_CHAR.test(text[at - 1] ?? ' ') && !WORD_CHAR.test(text[at + word.length] ?? ' '))
          return true;
      }
      return false;
    };
    return (
      options.find(
        (o) =>
          (typeof o === 'string' || typeof o === 'number') &&
          String(o) !== '' &&
          named(String(o).toLowerCase()),
      ) ?? null
    );
  }

  /** The first match of a regular expression in the prompt, or null. */
  find(re: RegExp): string | null {
    return re.exec(this.text)?.[0] ?? null;
  }
}

/** Words of an identifier or a text: `getWeather`, `get_weather` and "get weather" agree. */
export function wordsOf(text: string): string[] {
  return (
    text
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .toLowerCase()
      .match(/[a-z][a-z']*/g) ?? []
  ).map((w) => w.replace(/'s$/, ''));
}

/** Capitalised words not opening a sentence, runs joined: "weather in New York" → "New York". */
function properNames(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?<![.!?:]\s*|^\s*)\b[A-Z][a-zA-Z'-]+(?:\s+[A-Z][a-zA-Z'-]+)*/g)) {
    if (!out.includes(m[0])) out.push(m[0]);
  }
  return out;
}

const WORD_CHAR = /[\w-]/;
