/**
 * A short string matching a regular expression, for a `pattern` the prompt offers nothing
 * for: literals, escapes (`\d`, `\w`, `\s`, an escaped character), classes (`[A-Z0-9_-]`,
 * `[^…]`), groups with alternatives (the first is taken), and quantifiers (the least count,
 * one for `+`). Null for anything else (backreferences, lookarounds), and the caller keeps
 * its value.
 */
export function patternString(pattern: string): string | null {
  try {
    const p = new Parser(pattern);
    const out = p.alternatives();
    return p.done() ? out : null;
  } catch {
    return null;
  }
}

class Parser {
  private at = 0;
  constructor(private readonly src: string) {}

  done(): boolean {
    return this.at === this.src.length;
  }

  /** `a|b`: the first alternative, the others read past. */
  alternatives(): string {
    const first = this.sequence();
    while (this.src[this.at] === '|') {
      this.at++;
      this.sequence();
    }
    return first;
  }

  private sequence(): string {
    let out = '';
    while (this.at < this.src.length && this.src[this.at] !== '|' && this.src[this.at] !== ')') {
      const atom = this.atom();
      out += atom.repeat(this.quantifier());
    }
    return out;
  }

  private atom(): string {
    const c = this.src[this.at++]!;
    if (c === '^' || c === '$') return '';
    if (c === '.') return 'a';
    if (c === '\\') return this.escape();
    if (c === '[') return this.charClass();
    if (c === '(') {
      if (this.src[this.at] === '?') {
        if (this.src[this.at + 1] !== ':') throw new Error('lookaround');
        this.at += 2;
      }
      const inner = this.alternatives();
      if (this.src[this.at++] !== ')') throw new Error('unclosed group');
      return inner;
    }
    if ('*+?{}'.includes(c)) throw new Error('nothing to repeat');
    return c;
  }

  private escape(): string {
    const c = this.src[this.at++];
    if (c === undefined) throw new Error('trailing backslash');
    if (c === 'd') return '1';
    if (c === 'w') return 'a';
    if (c === 's') return ' ';
    if (c === 'D' || c === 'W' || c === 'S') return c === 'D' ? 'a' : '-';
    if (/[1-9bBkpPux]/.test(c)) throw new Error('unsupported escape');
    return c;
  }

  /** A class: its first member that is not excluded (for `[^…]`, a letter or digit outside it). */
  private charClass(): string {
    const negated = this.src[this.at] === '^';
    if (negated) this.at++;
    const members: [string, string][] = [];
    while (this.src[this.at] !== ']') {
      if (this.at >= this.src.length) throw new Error('unclosed class');
      let lo = this.src[this.at++]!;
      if (lo === '\\') lo = this.escape();
      let hi = lo;
      if (this.src[this.at] === '-' && this.src[this.at + 1] !== ']') {
        this.at++;
        hi = this.src[this.at++]!;
        if (hi === '\\') hi = this.escape();
      }
      members.push([lo, hi]);
    }
    this.at++;
    if (!negated) return members[0]?.[0] ?? '';
    const inside = (ch: string) => members.some(([lo, hi]) => ch >= lo && ch <= hi);
    const free = [...'a1A_-. '].find((ch) => !inside(ch));
    if (free === undefined) throw new Error('no free character');
    return free;
  }

  /** How many times the atom before it is written: `{n}`, `{n,}`, `{n,m}` → n; `+` → 1; `*`, `?` → 0. */
  private quantifier(): number {
    const c = this.src[this.at];
    let count = 1;
    if (c === '*' || c === '?') [count, this.at] = [0, this.at + 1];
    else if (c === '+') this.at++;
    else if (c === '{') {
      const m = /^\{(\d+)(?:,(\d*))?\}/.exec(this.src.slice(this.at));
      if (!m) throw new Error('bad quantifier');
      [count, this.at] = [Number(m[1]), this.at + m[0].length];
      if (count > 1000) throw new Error('too long');
    }
    if (this.src[this.at] === '?') this.at++; // lazy: the count is the same
    return count;
  }
}
