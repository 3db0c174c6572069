import type { RE2JS } from 're2js';
import { re2Library } from './lazy.js';

/**
 * Every regular expression a user or a service gives driftcheck — a `regex` check, a JSON
 * Schema `pattern` (json_schema checks, tool parameters, response formats, the simulator's
 * answers) — is compiled here and matched by RE2 (the pure-JS `re2js` port), in time linear
 * in the text. JavaScript's own engine backtracks: `^(a+)+$` on 40 `a` and a `!` took about
 * 135 s per sample on the main thread, and SIGTERM waited for it. RE2 has no lookaround and
 * no backreference: those are refused with what to write instead. Everything else means
 * what it means in JavaScript: the pattern is checked by JavaScript's parser first, then
 * written in RE2's syntax with JavaScript's meaning of `.`, `\s`, `\S`, escapes and classes.
 */

/** A compiled pattern: the first match in a text, found in linear time. */
interface LinearPattern {
  /** As JavaScript writes it: `/refund\/30/i`; toString() says the same. */
  readonly text: string;
  /** Where the first match starts and how long it is (UTF-16 units, as String indices), or null. */
  search(input: string): { index: number; length: number } | null;
  test(input: string): boolean;
  toString(): string;
}

/** A pattern that cannot be matched: JavaScript's own syntax error, or what RE2 cannot run (with what to write instead). */
interface PatternRefusal {
  error: string;
  /** Present when the pattern is valid JavaScript that linear-time matching cannot run. */
  hint?: string;
}

export type CompiledPattern = { pattern: LinearPattern } | PatternRefusal;

/** Why linear-time matching refuses a pattern, as each refusal says it. */
const WHY = 'driftcheck matches patterns in linear time (RE2), so that no answer can stall a run';

class Refused extends Error {
  constructor(
    message: string,
    readonly hint: string,
  ) {
    super(message);
  }
}

/** JavaScript's white space (`\s`): RE2's is ASCII only. */
const WHITE_SPACE =
  '\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff';
const code = (unit: number): string => `\\x{${unit.toString(16).toUpperCase()}}`;
const WHITE_SPACE_CLASS = [...WHITE_SPACE].map((c) => code(c.codePointAt(0)!)).join('');
/** `.` without the `s` flag: anything but JavaScript's four line terminators (RE2's `.` stops at `\n` only). */
const NOT_LINE_END = '[^\\n\\r\\x{2028}\\x{2029}]';
const ANYTHING = '[\\x{0}-\\x{10FFFF}]';
const NOTHING = '[^\\x{0}-\\x{10FFFF}]';
/** A quantifier's braces, `{2}`, `{2,}`, `{2,5}`: any other brace is a literal (JavaScript without `u`). */
const QUANTIFIER = /\{\d+(?:,\d*)?\}/y;

/** JavaScript's long names of general categories, as RE2 names them. */
const CATEGORIES: Readonly<Record<string, string>> = {
  Letter: 'L',
  Cased_Letter: 'LC',
  Uppercase_Letter: 'Lu',
  Lowercase_Letter: 'Ll',
  Titlecase_Letter: 'Lt',
  Modifier_Letter: 'Lm',
  Other_Letter: 'Lo',
  Mark: 'M',
  Combining_Mark: 'M',
  Nonspacing_Mark: 'Mn',
  Spacing_Mark: 'Mc',
  Enclosing_Mark: 'Me',
  Number: 'N',
  Decimal_Number: 'Nd',
  digit: 'Nd',
  Letter_Number: 'Nl',
  Other_Number: 'No',
  Punctuation: 'P',
  punct: 'P',
  Connector_Punctuation: 'Pc',
  Dash_Punctuation: 'Pd',
  Open_Punctuation: 'Ps',
  Close_Punctuation: 'Pe',
  Initial_Punctuation: 'Pi',
  Final_Punctuation: 'Pf',
  Other_Punctuation: 'Po',
  Symbol: 'S',
  Math_Symbol: 'Sm',
  Currency_Symbol: 'Sc',
  Modifier_Symbol: 'Sk',
  Other_Symbol: 'So',
  Separator: 'Z',
  Space_Separator: 'Zs',
  Line_Separator: 'Zl',
  Paragraph_Separator: 'Zp',
  Other: 'C',
  Control: 'Cc',
  cntrl: 'Cc',
  Format: 'Cf',
  Surrogate: 'Cs',
  Private_Use: 'Co',
  Unassigned: 'Cn',
  ASCII: 'Ascii',
};

/** Groups of a pattern, for telling a backreference (`\2`) from an octal escape, as JavaScript does. */
function countGroups(source: string): { count: number; named: boolean } {
  let count = 0;
  let named = false;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(' && source[i + 1] !== '?') count++;
    else if (c === '(' && source.startsWith('?<', i + 1) && !'=!'.includes(source[i + 3] ?? '')) {
      count++;
      named = true;
    }
  }
  return { count, named };
}

/** Writes a JavaScript pattern (already valid JavaScript) in RE2's syntax, with JavaScript's meaning. */
class Translation {
  private i = 0;
  private readonly groups: { count: number; named: boolean };

  constructor(
    private readonly source: string,
    private readonly flags: string,
  ) {
    this.groups = countGroups(source);
  }

  private get unicode(): boolean {
    return this.flags.includes('u') || this.flags.includes('v');
  }

  run(): string {
    const src = this.source;
    let out = '';
    while (this.i < src.length) {
      const c = src[this.i]!;
      if (c === '\\') out += this.escape(false);
      else if (c === '[') out += this.charClass();
      else if (c === '(') out += this.group();
      else if (c === '.') {
        out += this.flags.includes('s') ? ANYTHING : NOT_LINE_END;
        this.i++;
      } else if (c === '{') {
        // A quantifier as it is; a brace that starts none is a literal (JavaScript without `u`).
        QUANTIFIER.lastIndex = this.i;
        const quantifier = QUANTIFIER.exec(src);
        out += quantifier ? quantifier[0] : '\\{';
        this.i += quantifier ? quantifier[0].length : 1;
      } else if (c === '}' || c === ']') {
        out += `\\${c}`;
        this.i++;
      } else {
        const ch = String.fromCodePoint(src.codePointAt(this.i)!);
        out += ch;
        this.i += ch.length;
      }
    }
    return out;
  }

  /** A group: plain `(?:` (only where the match is counts, so none needs to capture), or a refusal. */
  private group(): string {
    const rest = this.source.slice(this.i, this.i + 4);
    if (rest.startsWith('(?=') || rest.startsWith('(?!'))
      throw new Refused(
        `a lookahead ${rest.slice(0, 3)}…) cannot run: ${WHY}, and RE2 has no lookaround`,
        'check what must or must not follow with a check of its own (a second `regex`, `not_contains`), or in a schema with allOf / not and a `pattern` each',
      );
    if (rest.startsWith('(?<=') || rest.startsWith('(?<!'))
      throw new Refused(
        `a lookbehind ${rest}…) cannot run: ${WHY}, and RE2 has no lookaround`,
        'match the text before as part of the pattern, or check it with a check of its own (a second `regex`, `not_contains`)',
      );
    if (rest.startsWith('(?<')) this.i = this.source.indexOf('>', this.i) + 1;
    else if (rest.startsWith('(?:')) this.i += 3;
    else if (rest.startsWith('(?'))
      throw new Refused(
        `the group modifier ${rest}… cannot run: ${WHY}`,
        'set the flag for the whole pattern instead (/…/i)',
      );
    else this.i++;
    return '(?:';
  }

  private backreference(written: string): never {
    throw new Refused(
      `a backreference (${written}) cannot run: ${WHY}, and RE2 has no backreference`,
      'match the repeated text itself: ([\'"]).*?\\1 becomes (?:\'[^\']*\'|"[^"]*")',
    );
  }

  /** The escape at `i`, in RE2's spelling; `inClass`: inside `[…]`, where `\b` is a backspace and `\s` is spelled without brackets. */
  private escape(inClass: boolean): string {
    const src = this.source;
    const next = src[this.i + 1] ?? '';
    this.i += 2;
    switch (next) {
      case 'd':
      case 'D':
      case 'w':
      case 'W':
      case 'f':
      case 'n':
      case 'r':
      case 't':
      case 'v':
        return `\\${next}`;
      case 'b':
        return inClass ? code(8) : '\\b';
      case 'B':
        return inClass ? 'B' : '\\B';
      case 's':
        return inClass ? WHITE_SPACE_CLASS : `[${WHITE_SPACE_CLASS}]`;
      case 'S':
        return `[^${WHITE_SPACE_CLASS}]`;
      case 'c': {
        const letter = src[this.i] ?? '';
        // Inside a class JavaScript also takes a digit or `_` (Annex B).
        if (/[A-Za-z]/.test(letter) || (inClass && /[\d_]/.test(letter))) {
          this.i++;
          return code(letter.charCodeAt(0) % 32);
        }
        // `\c` before anything else is a backslash and a `c`.
        this.i--;
        return '\\\\';
      }
      case 'x': {
        const hex = /^[0-9a-fA-F]{2}/.exec(src.slice(this.i, this.i + 2));
        if (!hex) return 'x';
        this.i += 2;
        return code(parseInt(hex[0], 16));
      }
      case 'u':
        return this.unicodeEscape();
      case 'p':
      case 'P':
        return this.unicode ? this.property(next) : next;
      case 'k':
        if (this.unicode || this.groups.named) {
          const name = /^<[^>]*>/.exec(src.slice(this.i));
          this.backreference(`\\k${name?.[0] ?? ''}`);
        }
        return 'k';
      case '0':
      case '1':
      case '2':
      case '3':
      case '4':
      case '5':
      case '6':
      case '7':
      case '8':
      case '9':
        return this.digitEscape(next, inClass);
      default: {
        // An identity escape: the character itself (RE2 gives `\a`, `\z`, `\Q` meanings of its own).
        const ch = String.fromCodePoint(src.codePointAt(this.i - 1)!);
        this.i += ch.length - 1;
        return literal(ch);
      }
    }
  }

  /** `\0`, a backreference `\3`, or (JavaScript without `u`, past the groups there are) an octal escape or a digit. */
  private digitEscape(first: string, inClass: boolean): string {
    const src = this.source;
    const digits = /^\d*/.exec(src.slice(this.i))![0];
    if (first !== '0' && !inClass && (this.unicode || Number(first + digits) <= this.groups.count))
      this.backreference(`\\${first}${digits}`);
    if (first === '8' || first === '9') return first;
    const octal = /^[0-7]{0,2}/.exec(src.slice(this.i))![0];
    let value = first + octal;
    // Three octal digits only while the value fits a byte (\400 is \40 and a 0).
    if (value.length === 3 && parseInt(value, 8) > 0o377) value = value.slice(0, 2);
    this.i += value.length - 1;
    return code(parseInt(value, 8));
  }

  /** `\uXXXX` (a surrogate pair of them is one character), `\u{…}` with `u`, or a `u`. */
  private unicodeEscape(): string {
    const src = this.source;
    if (this.unicode && src[this.i] === '{') {
      const end = src.indexOf('}', this.i);
      const value = parseInt(src.slice(this.i + 1, end), 16);
      this.i = end + 1;
      return code(value);
    }
    const hex = /^[0-9a-fA-F]{4}/.exec(src.slice(this.i, this.i + 4));
    if (!hex) return 'u';
    this.i += 4;
    const unit = parseInt(hex[0], 16);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const low = /^\\u(d[c-f][0-9a-f]{2})/i.exec(src.slice(this.i, this.i + 6));
      if (low) {
        this.i += 6;
        return code(((unit - 0xd800) << 10) + (parseInt(low[1]!, 16) - 0xdc00) + 0x10000);
      }
    }
    if (unit >= 0xd800 && unit <= 0xdfff)
      throw new Refused(
        `the lone surrogate \\u${hex[0]} cannot be matched in linear time (RE2), which reads whole characters`,
        'write the character itself, or both halves of the pair (\\uD83D\\uDE00)',
      );
    return code(unit);
  }

  /** `\p{…}` in RE2's names: long category names made short, `Script=`/`gc=` prefixes dropped. */
  private property(letter: string): string {
    const src = this.source;
    const end = src.indexOf('}', this.i);
    const written = src.slice(this.i + 1, end);
    this.i = end + 1;
    if (letter === 'P' && this.flags.includes('i'))
      throw new Refused(
        `\\P{${written}} with the i flag cannot run: JavaScript leaves the property out and then adds the other case of what is left (so \\P{Lu} matches A), RE2 folds case before it leaves the property out`,
        `drop the i flag, or write [^\\p{${written}}] if you meant no character of it in either case`,
      );
    const [name, value] = written.includes('=') ? written.split('=') : [null, written];
    if (name === 'Script_Extensions' || name === 'scx')
      throw new Refused(
        `\\${letter}{${written}} cannot run: RE2 knows scripts, not script extensions`,
        `write \\${letter}{${value}} (the script alone)`,
      );
    return `\\${letter}{${CATEGORIES[value!] ?? value}}`;
  }

  /** One member of a class: a character (in RE2's spelling) or a set (`\d`, `\s`; `\S` is added by charClass). */
  private classAtom(): { text: string; set: boolean; nonSpace: boolean } {
    const src = this.source;
    if (src[this.i] !== '\\') {
      const ch = String.fromCodePoint(src.codePointAt(this.i)!);
      this.i += ch.length;
      return { text: literal(ch), set: false, nonSpace: false };
    }
    const next = src[this.i + 1] ?? '';
    if (next === 'S') {
      this.i += 2;
      return { text: '', set: true, nonSpace: true };
    }
    const set = 'dDwWs'.includes(next) || (this.unicode && (next === 'p' || next === 'P'));
    return { text: this.escape(true), set: next !== '' && set, nonSpace: false };
  }

  /** `[…]`: written for RE2, JavaScript's meaning kept (a class holding `\S` is worked out from JavaScript's own answer). */
  private charClass(): string {
    const src = this.source;
    const start = this.i;
    this.i++;
    const negated = src[this.i] === '^';
    if (negated) this.i++;
    let body = '';
    let nonSpace = false;
    while (src[this.i] !== ']') {
      if (
        this.flags.includes('v') &&
        (src[this.i] === '[' || src.startsWith('&&', this.i) || src.startsWith('--', this.i))
      )
        throw new Refused(
          'a class with set operations (the v flag: nested classes, &&, --) cannot run: RE2 has none',
          'list the characters of the class, or use the u flag',
        );
      const from = this.classAtom();
      // `a-z` is a range; with a set on either side (`\d-z`) JavaScript reads the three as they are.
      if (src[this.i] === '-' && src[this.i + 1] !== ']') {
        this.i++;
        const to = this.classAtom();
        body += from.set || to.set ? `${from.text}\\-${to.text}` : `${from.text}-${to.text}`;
        nonSpace ||= from.nonSpace || to.nonSpace;
      } else {
        body += from.text;
        nonSpace ||= from.nonSpace;
      }
    }
    this.i++;
    if (nonSpace) {
      // `\S` puts every other character in the class (or, negated, out of it), whatever else
      // it lists; which white space is in it is asked of JavaScript itself, so the set is
      // exactly JavaScript's.
      const js = new RegExp(src.slice(start, this.i), this.flags.replace(/[gy]/g, ''));
      const spaces = [...WHITE_SPACE];
      const listed = (chars: string[]) => chars.map((ch) => code(ch.codePointAt(0)!)).join('');
      if (negated) {
        const members = spaces.filter((ch) => js.test(ch));
        return members.length ? `[${listed(members)}]` : NOTHING;
      }
      const left = spaces.filter((ch) => !js.test(ch));
      return left.length ? `[^${listed(left)}]` : ANYTHING;
    }
    if (body === '') return negated ? ANYTHING : NOTHING;
    return `[${negated ? '^' : ''}${body}]`;
  }
}

/** A character as RE2 reads it literally, in a class or out of one (RE2 takes any ASCII punctuation escaped). */
function literal(ch: string): string {
  return /[!-/:-@[-`{-~]/.test(ch) ? `\\${ch}` : ch;
}

/** RE2's flag bits for JavaScript's flags (`s` is kept by the translation of `.`). */
function re2Flags(re2: typeof RE2JS, flags: string): number {
  return (flags.includes('i') ? re2.CASE_INSENSITIVE : 0) | (flags.includes('m') ? re2.MULTILINE : 0);
}

/** Compiled patterns by flags and source: a case's regex is checked on every sample, and tables repeat them. */
const compiled = new Map<string, CompiledPattern>();
const MAX_COMPILED = 1024;

/**
 * `source` with JavaScript `flags` (d g i m s u v y) as a pattern matched in linear time,
 * or why it cannot be: JavaScript's syntax error, or a construct RE2 cannot run (with a
 * hint). `g`, `d` change nothing about the first match; `y` anchors it at the start.
 */
export function compilePattern(source: string, flags = ''): CompiledPattern {
  const key = `${flags}/${source}`;
  let entry = compiled.get(key);
  if (entry === undefined) {
    if (compiled.size >= MAX_COMPILED) compiled.clear();
    compiled.set(key, (entry = compileOnce(source, flags)));
  }
  return entry;
}

function compileOnce(source: string, flags: string): CompiledPattern {
  let js: RegExp;
  try {
    // JavaScript's parser says whether it is a pattern at all, in its own words. Compiling
    // is safe; only matching backtracks.
    js = new RegExp(source, flags);
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  const text = String(js);
  try {
    const translated = new Translation(source, flags).run();
    const { RE2JS } = re2Library();
    const re = RE2JS.compile(
      flags.includes('y') ? `\\A(?:${translated})` : translated,
      re2Flags(RE2JS, flags),
    );
    return {
      pattern: {
        text,
        // ajv keeps one compiled pattern per distinct toString(): a RegExp's is its text.
        toString: () => text,
        test: (input) => re.test(input),
        search(input) {
          // The DFA answers whether there is a match; only then is it located.
          if (!re.test(input)) return null;
          const m = re.matcher(input);
          return m.find() ? { index: m.start(), length: m.end() - m.start() } : null;
        },
      },
    };
  } catch (error) {
    if (error instanceof Refused) return { error: error.message, hint: error.hint };
    const said =
      error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : String(error);
    return {
      error: `${text} cannot run in linear time (RE2): ${said}`,
      hint: 'RE2 takes repeat counts up to 1000, and \\p{…} by general category or script (\\p{L}, \\p{Greek})',
    };
  }
}

/**
 * ajv's `code.regExp`: the JSON Schema `pattern` and `patternProperties` of every schema a
 * user or a service gives (json_schema checks, tool parameters, response formats) are matched
 * here. A pattern that cannot run throws, so the schema does not compile (validate refuses it
 * first, at its line: see schemaPatternProblems).
 */
export const linearRegExp = Object.assign(
  (source: string, flags: string): { test(input: string): boolean } => {
    const compiledPattern = compilePattern(source, flags);
    if ('error' in compiledPattern)
      throw new Error(`pattern ${JSON.stringify(source)}: ${compiledPattern.error}`);
    return compiledPattern.pattern;
  },
  // ajv writes this name only into standalone code, which driftcheck never generates.
  { code: 'linearRegExp' },
);

/** Keywords whose values are data, not schemas: a `pattern` key inside them is no pattern. */
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples', 'example']);
/** Keywords whose values map names to schemas: the names are no keywords. */
const SCHEMA_MAPS = new Set(['properties', '$defs', 'definitions', 'dependentSchemas', 'dependencies']);

/** A pattern of a schema that cannot run: where it is and why. */
interface SchemaPatternProblem {
  /** JSON pointer under the schema. */
  pointer: string;
  /** The same place as people read it: `properties.code.pattern`. */
  path: string;
  message: string;
  hint: string;
}

const pointerPart = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * The first `pattern` or `patternProperties` name of a JSON Schema that cannot run (as
 * ajv reads them: with the `u` flag), with its place, so validate can name its line; null
 * when every pattern can.
 */
export function schemaPatternProblem(schema: unknown): SchemaPatternProblem | null {
  return walk(schema, '', '');
}

function walk(schema: unknown, pointer: string, path: string): SchemaPatternProblem | null {
  const under = (key: string) => [`${pointer}/${pointerPart(key)}`, path ? `${path}.${key}` : key] as const;
  if (Array.isArray(schema)) {
    for (let i = 0; i < schema.length; i++) {
      const found = walk(schema[i], `${pointer}/${i}`, `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (typeof schema !== 'object' || schema === null) return null;
  const refuse = (source: string, [at, named]: readonly [string, string]): SchemaPatternProblem | null => {
    const result = compilePattern(source, 'u');
    if (!('error' in result)) return null;
    return {
      pointer: at,
      path: named,
      message: `the pattern ${JSON.stringify(source)} cannot be used: ${result.error}`,
      hint:
        result.hint ??
        'write a JavaScript regular expression (JSON Schema patterns are read with the u flag)',
    };
  };
  for (const [key, value] of Object.entries(schema as Record<string, unknown>)) {
    if (DATA_KEYWORDS.has(key)) continue;
    const here = under(key);
    let found: SchemaPatternProblem | null = null;
    if (key === 'pattern' && typeof value === 'string') found = refuse(value, here);
    else if (key === 'patternProperties' && typeof value === 'object' && value !== null)
      for (const [source, sub] of Object.entries(value)) {
        const at = [`${here[0]}/${pointerPart(source)}`, `${here[1]}[${JSON.stringify(source)}]`] as const;
        found = refuse(source, at) ?? walk(sub, ...at);
        if (found) break;
      }
    else if (SCHEMA_MAPS.has(key) && typeof value === 'object' && value !== null && !Array.isArray(value))
      for (const [name, sub] of Object.entries(value)) {
        found = walk(sub, `${here[0]}/${pointerPart(name)}`, `${here[1]}.${name}`);
        if (found) break;
      }
    else found = walk(value, ...here);
    if (found) return found;
  }
  return null;
}
