import { joinWords } from './words.js';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const NOT_KEYS = new Set([
  'json',
  'and',
  'or',
  'the',
  'a',
  'an',
  'with',
  'object',
  'only',
  'named',
  'called',
  'of',
]);

/**
 * Keys a prompt asks for: quoted or back-ticked identifiers, snake_case words, and the
 * words after "keys"/"fields"/"properties". Falls back to `<noun>_id` + `status` for
 * "the order as JSON", and to `answer` when nothing is named.
 */
function jsonKeys(text: string): string[] {
  const keys: string[] = [];
  const add = (key: string) => {
    if (IDENTIFIER.test(key) && !NOT_KEYS.has(key.toLowerCase()) && !keys.includes(key) && keys.length < 12) {
      keys.push(key);
    }
  };
  for (const m of text.matchAll(/[`"']([A-Za-z_][A-Za-z0-9_]*)[`"']/g)) add(m[1]!);
  for (const m of text.matchAll(/\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g)) add(m[0]);
  const listed =
    /\b(?:keys?|fields?|properties|attributes)\s*(?:named|called)?\s*:?\s*([A-Za-z_][\w]*(?:\s*(?:,\s*and|,|and)\s*[A-Za-z_][\w]*)*)/i.exec(
      text,
    );
  if (listed) for (const word of listed[1]!.split(/\s*(?:,|\band\b)\s*/)) add(word.trim());
  if (keys.length > 0) return keys;
  const noun = /\b(?:the|an?|this|that|my|your|our)\s+([a-z]+)\s+(?:as|in)\s+(?:an?\s+)?json\b/i.exec(
    text,
  )?.[1];
  return noun ? [`${noun.toLowerCase()}_id`, 'status'] : ['answer'];
}

/** A plausible value for a key, chosen from the key's name alone so every model agrees. */
function valueFor(key: string, idIndex: number, words: readonly string[]): unknown {
  const k = key.toLowerCase();
  if (k === 'answer') return words.length > 0 ? `A short answer about ${joinWords(words)}.` : 'OK';
  if (/(^|_)id$/.test(k)) return `A-${1001 + idIndex}`;
  if (/^(is|has|can)_|(^|_)(enabled|active|valid|ok|available|success)$/.test(k)) return true;
  if (/(^|_)year$/.test(k)) return 2024;
  if (/(count|quantity|qty|number|num|age|total|amount|price|cost|score)s?$/.test(k)) return 42;
  if (/(date|day)$|_at$|time$/.test(k)) return '2024-05-01';
  if (k.includes('email')) return 'jane.doe@example.com';
  if (k.includes('url') || k.includes('link')) return 'https://example.com';
  if (k.includes('currency')) return 'USD';
  if (k.includes('status') || k.includes('state')) return 'confirmed';
  if (k.endsWith('name')) return 'Jane Doe';
  if (/(items|list|tags|lines)$/.test(k)) return ['alpha', 'beta'];
  return `sample ${k.replace(/_/g, ' ')}`;
}

/** The JSON text answering a prompt that mentions JSON; wordy models indent it. */
export function jsonAnswer(text: string, words: readonly string[], indent: boolean): string {
  const object: Record<string, unknown> = {};
  let idIndex = 0;
  for (const key of jsonKeys(text)) {
    object[key] = valueFor(key, idIndex, words);
    if (/(^|_)id$/i.test(key)) idIndex++;
  }
  return JSON.stringify(object, null, indent ? 2 : undefined);
}
