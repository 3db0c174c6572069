import type { ChatMessage } from './answer.js';
import { hash, ordinal, parseCount, sentences, singular, stem } from './words.js';

/*
 * The rule engine behind `answer`: each rule recognises one kind of request in the last
 * user message and extracts its factual part. Wording per model is styles.ts's job.
 */

const SAY =
  /(?:^|[.!?;:\n]\s*|\b(?:please|just|now)\s+)(?:say|print|repeat)\s+(?:(?:exactly|only|just|back|the\s+words?|the\s+text)\b[\s:]*)*:?\s*(.+)/i;
const REPLY =
  /(?:^|[.!?;:\n]\s*|\b(?:please|just|now)\s+)(?:reply|respond|answer|output|write)\s+(?:only\s+|just\s+)?(?:with\b|exactly\b|:)\s*(?:(?:exactly|only|just|the\s+words?|the\s+text)\b[\s:]*)*:?\s*(.+)/i;
const CLOSING_QUOTE: Record<string, string> = { '"': '"', "'": "'", '`': '`', '“': '”', '‘': '’' };

/** The X of "say X" / "reply with exactly X", or null when the prompt asks for something else. */
export function sayTarget(text: string): string | null {
  const raw = (SAY.exec(text) ?? REPLY.exec(text))?.[1]?.trim();
  if (!raw || /json|^(?:yes or no|yes\/no|a number|one word|a single word)\b/i.test(raw)) return null;
  const close = CLOSING_QUOTE[raw[0]!];
  if (close) {
    const end = raw.indexOf(close, 1);
    if (end > 1) return raw.slice(1, end);
  }
  const cleaned = raw
    .replace(/\s*,?\s*(?:and\s+)?(?:nothing else|only)\s*[.!]?$/i, '')
    .replace(/\.$/, '')
    .trim();
  return cleaned.length > 0 ? cleaned : null;
}

const ARITHMETIC =
  /(-?\d+(?:\.\d+)?)\s*(\+|-|\*|x|×|\/|÷|plus|minus|times|multiplied by|divided by)\s*(-?\d+(?:\.\d+)?)/i;
const ASKS_MATH =
  /\b(?:what\s+is|what's|calculate|compute|how\s+much\s+is|evaluate|solve)\b|=\s*\??\s*$|\?\s*$/i;

export function arithmetic(text: string): { expression: string; result: string } | null {
  const m = ARITHMETIC.exec(text);
  if (!m || !ASKS_MATH.test(text)) return null;
  const a = Number(m[1]);
  const b = Number(m[3]);
  const op = m[2]!.toLowerCase();
  let symbol: string;
  let value: number;
  if (op === '+' || op === 'plus') [symbol, value] = ['+', a + b];
  else if (op === '-' || op === 'minus') [symbol, value] = ['-', a - b];
  else if (op === '/' || op === '÷' || op === 'divided by') [symbol, value] = ['/', a / b];
  else [symbol, value] = ['*', a * b];
  const result = !Number.isFinite(value)
    ? 'undefined'
    : Number.isInteger(value)
      ? String(value)
      : String(Number(value.toFixed(6)));
  return { expression: `${m[1]} ${symbol} ${m[3]}`, result };
}

const LIST =
  /\b(?:list|name|give(?:\s+me)?|suggest|enumerate)\s+(\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten)\s+([a-z][a-z -]*?)(?=\s+(?:that|which|for|of|about|in|from|with|to|you)\b|[.,:;?!]|$)/i;

/** "list 3 fruits" → three numbered lines; wordy styles add an intro line. */
export function numberedList(text: string, intro: boolean): string | null {
  const m = LIST.exec(text);
  if (!m) return null;
  const n = Math.min(50, parseCount(m[1]!));
  if (!(n >= 1)) return null;
  const phrase = m[2]!.trim().toLowerCase();
  const parts = phrase.split(/\s+/);
  const item = [...parts.slice(0, -1), singular(parts[parts.length - 1]!)].join(' ');
  const lines: string[] = intro ? [`Here are ${n} ${phrase}:`] : [];
  for (let i = 1; i <= n; i++) lines.push(`${i}. ${ordinal(i)} ${item}`);
  return lines.join('\n');
}

const AUXILIARY =
  /^(?:is|are|am|was|were|do|does|did|can|could|will|would|should|shall|has|have|had|may|might|must|isn't|aren't|doesn't|don't|won't|can't)\b/i;

/** true/false for a yes/no question (a hash of the question, so every model agrees), else null. */
export function yesNo(text: string): boolean | null {
  const question = [...sentences(text)].reverse().find((s) => s.endsWith('?'));
  const asked = question && AUXILIARY.test(question) ? question : /\byes or no\b/i.test(text) ? text : null;
  if (asked === null) return null;
  return hash(asked.toLowerCase().replace(/\s+/g, ' ')) % 2 === 0;
}

/**
 * A sentence that tells the assistant who to be ("You are a support agent for ACME."): an
 * instruction, not a fact a question can be answered with. Matched on a shared word alone
 * (the company's name), it used to come back as the answer to any question naming it.
 */
const ROLE_INSTRUCTION =
  /^(?:you are|you're|act as|your role\b|your job\b|as an? [a-z]+ (?:agent|assistant)\b)/i;

/**
 * The earlier sentence (system prompt, prior turns) sharing the most content words with the
 * question; never a role instruction to the assistant.
 */
export function groundingSentence(
  messages: readonly ChatMessage[],
  skip: number,
  words: string[],
): string | null {
  if (words.length === 0) return null;
  const wanted = words.map(stem);
  let best: string | null = null;
  let bestScore = 0;
  messages.forEach((m, i) => {
    if (i === skip) return;
    for (const sentence of sentences(m.content)) {
      if (ROLE_INSTRUCTION.test(sentence)) continue;
      const stems = new Set((sentence.match(/[A-Za-z]+/g) ?? []).map(stem));
      const score = wanted.filter((w) => stems.has(w)).length;
      if (score > bestScore) [best, bestScore] = [sentence, score];
    }
  });
  return best;
}
