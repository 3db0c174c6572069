import { parseBoundedJson } from '../util/json-depth.js';

/** Where in the content the JSON value was found; reported in check messages. */
type JsonSource = 'whole content' | 'code fence' | 'embedded in text';

export type ExtractedJson = { value: unknown; source: JsonSource } | { error: string };

/** How many `{`/`[` starts to try in prose before giving up (bounds work on hostile output). */
const MAX_CANDIDATES = 64;

/**
 * Finds the JSON value a model meant to return: the whole content when it parses, else the
 * first ```json (or unlabelled) code fence, else the first balanced {…} or […] in the prose
 * that parses. An error says what went wrong: a parse error or a value cut off (truncated).
 */
export function extractJson(content: string): ExtractedJson {
  const trimmed = content.trim();
  if (trimmed === '') return { error: 'content is empty, no JSON to validate' };
  const whole = parseBoundedJson(trimmed);
  if ('value' in whole) return { value: whole.value, source: 'whole content' };
  // It is JSON, only too deep: its inner values are no more the answer than it is.
  if (whole.tooDeep) return { error: whole.error };

  const fenced = firstFence(content);
  if (fenced !== null) {
    const parsed = parseBoundedJson(fenced.body.trim());
    if ('value' in parsed) return { value: parsed.value, source: 'code fence' };
    if (parsed.tooDeep) return { error: `JSON in the code fence: ${parsed.error}` };
    // A ```json fence is what the model meant as its answer; an unlabelled one may be anything.
    if (fenced.labelled) {
      const cut = fenced.closed ? '' : ' (the fence is never closed: output truncated?)';
      return { error: `JSON in the code fence does not parse: ${parsed.error}${cut}` };
    }
  }
  return embedded(content, whole.error);
}

/** First fence labelled json/jsonc or unlabelled; an unclosed fence runs to the end (truncated output). */
function firstFence(content: string): { body: string; closed: boolean; labelled: boolean } | null {
  const open = /```[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n/g;
  for (let m = open.exec(content); m !== null; m = open.exec(content)) {
    const label = (m[1] ?? '').toLowerCase();
    const start = m.index + m[0].length;
    const end = content.indexOf('```', start);
    if (label === 'json' || label === 'jsonc' || label === '') {
      const labelled = label !== '';
      if (end < 0) return { body: content.slice(start), closed: false, labelled };
      return { body: content.slice(start, end), closed: true, labelled };
    }
    if (end < 0) return null;
    open.lastIndex = end + 3;
  }
  return null;
}

function embedded(content: string, wholeError: string): ExtractedJson {
  let firstError: string | null = null;
  let tried = 0;
  for (let i = 0; i < content.length && tried < MAX_CANDIDATES; i++) {
    const ch = content[i];
    if (ch !== '{' && ch !== '[') continue;
    tried++;
    const end = balancedEnd(content, i);
    if (end < 0) {
      firstError ??= `the JSON value starting at offset ${i} is never closed (output truncated?)`;
      continue;
    }
    const parsed = parseBoundedJson(content.slice(i, end + 1));
    if ('value' in parsed) return { value: parsed.value, source: 'embedded in text' };
    if (parsed.tooDeep) return { error: `JSON at offset ${i}: ${parsed.error}` };
    firstError ??= `JSON at offset ${i} does not parse: ${parsed.error}`;
  }
  return { error: firstError ?? `no JSON value found in the content (${wholeError})` };
}

/** Index of the bracket closing the one at `start`, skipping brackets inside strings; -1 when unbalanced. */
function balancedEnd(text: string, start: number): number {
  const stack: string[] = [];
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{') stack.push('}');
    else if (ch === '[') stack.push(']');
    else if (ch === '}' || ch === ']') {
      if (stack.pop() !== ch) return -1;
      if (stack.length === 0) return i;
    }
  }
  return -1;
}
