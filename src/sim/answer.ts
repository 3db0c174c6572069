import { jsonAnswer } from './json-answer.js';
import { judgeAnswer } from './judge.js';
import { arithmetic, groundingSentence, numberedList, sayTarget, yesNo } from './rules.js';
import {
  isWordy,
  type Style,
  styleFor,
  wordArithmetic,
  wordGeneral,
  wordGrounded,
  wordYesNo,
} from './styles.js';
import { parseBoundedJson } from '../util/json-depth.js';
import { capitalize, hash, keywords } from './words.js';

export interface ChatMessage {
  role: string;
  content: string;
  /** An assistant turn's calls as sent back (names and argument strings as received). */
  toolCalls?: SentCall[];
  /** A `tool` message: the call it answers. */
  toolCallId?: string;
  /** An assistant turn's `reasoning_details` as sent back, when it has them. */
  reasoningDetails?: unknown;
}

/** One call of an assistant turn in a request's history. */
export interface SentCall {
  id: string;
  name: string;
  arguments: string;
}

/** What a simulated model says; same input → same output, always. */
export interface SimAnswer {
  content: string;
  finishReason: 'stop' | 'length';
  promptTokens: number;
  completionTokens: number;
}

/** The text of the last user message ('' when there is none). */
export function lastUserText(messages: readonly ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--)
    if (messages[i]!.role === 'user') return messages[i]!.content;
  return '';
}

/** Token estimate the simulator uses everywhere: about four characters per token. */
export function tokenCount(text: string): number {
  return Math.ceil(tokensIn(text));
}

/** The same estimate unrounded: a piece of a text holds a share of a token (how long it takes to generate). */
export function tokensIn(text: string): number {
  return text.length / 4;
}

/** The deterministic answer of `model` to a conversation, cut to `maxTokens` (finish `length`). */
export function answer(
  model: string,
  messages: readonly ChatMessage[],
  maxTokens?: number | null,
  /** Another provider serving the model: its wording is seeded by this instead of the model id. */
  variant?: string | null,
  /** The tool results go unread: the answer is the one to the conversation without them. */
  unread = false,
): SimAnswer {
  let chars = 0;
  for (const m of messages) chars += m.content.length;
  const style = styleFor(model, variant);
  const read = unread ? messages.filter((m) => m.role !== 'tool') : messages;
  const { content, finishReason } = fitToTokens(compose(style, model, read), maxTokens);
  return {
    content,
    finishReason,
    promptTokens: Math.max(1, Math.ceil(chars / 4)),
    completionTokens: tokenCount(content),
  };
}

/** Cuts text to `maxTokens` tokens, as a service does when generation hits max_tokens. */
export function fitToTokens(
  text: string,
  maxTokens?: number | null,
): { content: string; finishReason: 'stop' | 'length' } {
  const limit = maxTokens != null && maxTokens > 0 ? maxTokens * 4 : Number.POSITIVE_INFINITY;
  return text.length > limit
    ? { content: text.slice(0, limit), finishReason: 'length' }
    : { content: text, finishReason: 'stop' };
}

function compose(style: Style, model: string, messages: readonly ChatMessage[]): string {
  // After tool calls, the model answers from what the tools returned in this turn.
  const results = turnResults(messages);
  if (results !== null) return wordGrounded(style, results);
  let lastUser = messages.length - 1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]!.role === 'user') {
      lastUser = i;
      break;
    }
  }
  const text = (messages[lastUser]?.content ?? '').trim();
  // A judge prompt quotes answers that may say "json" or "say X": it is recognised first.
  const judged = judgeAnswer(text, isWordy(style));
  if (judged !== null) return judged;
  const words = keywords(text);
  const said = sayTarget(text);
  if (said !== null) return said;
  if (/\bjson\b/i.test(text)) return jsonAnswer(text, words, isWordy(style));
  const sum = arithmetic(text);
  if (sum) return wordArithmetic(style, sum.expression, sum.result);
  const list = numberedList(text, isWordy(style));
  if (list) return list;
  const yes = yesNo(text);
  if (yes !== null) return wordYesNo(style, yes, words.slice(0, 2).join(' '));
  const fact = groundingSentence(messages, lastUser, words);
  if (fact) return wordGrounded(style, fact);
  return wordGeneral(style, words, hash(`${model}\n${text}`));
}

/**
 * When a conversation ends with tool messages: every result since the last user message, in
 * order, each in words (resultWords); null when it does not end with one.
 */
function turnResults(messages: readonly ChatMessage[]): string | null {
  if (messages[messages.length - 1]?.role !== 'tool') return null;
  let first = messages.length;
  while (first > 0 && messages[first - 1]!.role !== 'user') first--;
  const text = messages
    .slice(first)
    .filter((m) => m.role === 'tool')
    .map((m) => resultWords(m.content.trim()))
    .filter((c) => c !== '')
    .join(' ');
  return text === '' ? null : text;
}

/**
 * A tool result as the model words it: text verbatim; JSON (an object or a list) as its
 * values with their keys — `{"status":"shipped","eta":"Friday"}` → "Status: shipped, eta:
 * Friday." — so each value of the result appears in the answer.
 */
function resultWords(text: string): string {
  if (!/^[[{]/.test(text)) return text;
  const bounded = parseBoundedJson(text);
  if (!('value' in bounded) || typeof bounded.value !== 'object' || bounded.value === null) return text;
  const words = valueWords(bounded.value, 0);
  return words === '' ? text : `${capitalize(words)}.`;
}

function valueWords(value: unknown, depth: number): string {
  if (typeof value !== 'object' || value === null) return String(value);
  if (depth > 8) return JSON.stringify(value);
  if (Array.isArray(value)) return value.map((v) => valueWords(v, depth + 1)).join(', ');
  return Object.entries(value)
    .map(([k, v]) => `${k.replace(/_/g, ' ')}: ${valueWords(v, depth + 1)}`)
    .join(', ');
}
