import { capitalize, hash, joinWords, pick } from './words.js';

/**
 * How a model words its answers. Facts (the X of "say X", a sum, JSON keys, a grounded
 * sentence) are the same for every style; only the wording around them differs, so a
 * model switch shows up as content drift without breaking factual checks.
 */
export type Style = 'terse' | 'plain' | 'verbose' | 'formal' | 'friendly' | 'casual';

const STYLES: readonly Style[] = ['terse', 'plain', 'verbose', 'formal', 'friendly', 'casual'];

const MODEL_STYLES: Record<string, Style> = {
  'openai/gpt-4o-mini': 'terse',
  'openai/gpt-4o': 'plain',
  'anthropic/claude-sonnet-4.5': 'verbose',
  'anthropic/claude-opus-4.1': 'formal',
  'anthropic/claude-opus-4.5': 'friendly',
  'meta-llama/llama-3.3-70b-instruct': 'casual',
  'kimi-k2-0905-preview': 'plain',
  'kimi-k2-turbo-preview': 'terse',
  'moonshot-v1-8k': 'verbose',
};

function styleOf(model: string): Style {
  return MODEL_STYLES[model] ?? pick(STYLES, hash(model));
}

/**
 * The style of a model served by another provider (`variant` seeds it): never the model's
 * own, so a provider change always shows up as content drift, facts unchanged.
 */
function providerStyleOf(model: string, variant: string): Style {
  const own = styleOf(model);
  const others = STYLES.filter((s) => s !== own);
  return pick(others, hash(variant));
}

/** The style of a model as served: its own, or the provider's (`variant`) when another serves it. */
export function styleFor(model: string, variant: string | null | undefined): Style {
  return variant ? providerStyleOf(model, variant) : styleOf(model);
}

/** Styles that print JSON indented and add an intro line before lists. */
export function isWordy(style: Style): boolean {
  return style === 'verbose' || style === 'formal' || style === 'friendly';
}

/** A computed number, e.g. "42" or "12 + 30 = 42." */
export function wordArithmetic(style: Style, expression: string, result: string): string {
  switch (style) {
    case 'terse':
    case 'plain':
      return result;
    case 'verbose':
      return `${expression} = ${result}.`;
    case 'formal':
      return `The result is ${result}.`;
    case 'friendly':
      return `That comes to ${result}!`;
    case 'casual':
      return `It's ${result}.`;
  }
}

/** "Yes." / "No.", with an elaboration for wordy styles. */
export function wordYesNo(style: Style, yes: boolean, subject: string): string {
  const head = yes ? 'Yes.' : 'No.';
  if (!isWordy(style)) return head;
  if (style === 'friendly') return `${head} Hope that helps!`;
  const verdict = yes ? 'is generally the case' : 'is generally not the case';
  return `${head} That ${verdict}${subject ? ` for ${subject}` : ''}.`;
}

/** A sentence found in the conversation, kept verbatim so `contains` checks hold across models. */
export function wordGrounded(style: Style, fact: string): string {
  switch (style) {
    case 'verbose':
      return `${fact} Let me know if you would like more detail.`;
    case 'formal':
      return `According to the information provided: ${fact}`;
    case 'friendly':
      return `${fact} Hope that helps!`;
    default:
      return fact;
  }
}

type Template = (subject: string, points: string) => string;

const OPENERS: Record<Style, readonly Template[]> = {
  terse: [(s) => `${capitalize(s)}: it depends on the details.`, (s) => `Short answer: ${s} varies by case.`],
  plain: [
    (s) => `${capitalize(s)} usually depends on a few details.`,
    (s) => `Here is a short answer about ${s}.`,
  ],
  verbose: [
    (s) => `That is a good question about ${s}, and the answer has a few parts.`,
    (s) => `There are several things worth knowing about ${s}.`,
  ],
  formal: [
    (s) => `Regarding ${s}, the answer depends on the specific circumstances.`,
    (s) => `With respect to ${s}, several factors apply.`,
  ],
  friendly: [(s) => `Happy to help with ${s}!`, (s) => `Great question about ${s}!`],
  casual: [(s) => `So, ${s}? It really depends.`, (s) => `Honestly, ${s} varies a bit.`],
};

const MIDDLES: readonly Template[] = [
  (_s, p) => `The key points are ${p}.`,
  (_s, p) => `Most of it comes down to ${p}.`,
  (_s, p) => `It is worth looking at ${p} first.`,
];

const CLOSINGS: readonly string[] = [
  'Let me know if you would like more detail on any of these.',
  'I can expand on any part of this if that helps.',
];

const SENTENCE_COUNT: Record<Style, number> = {
  terse: 1,
  plain: 2,
  verbose: 3,
  formal: 2,
  friendly: 2,
  casual: 1,
};

/** The fallback answer: one to three readable sentences built from the prompt's words. */
export function wordGeneral(style: Style, words: readonly string[], seed: number): string {
  const subject = words.length > 0 ? words.slice(0, 2).join(' ') : 'that';
  const points = words.length > 0 ? joinWords(words) : 'the details you share';
  const parts = [pick(OPENERS[style], seed)(subject, points)];
  const count = SENTENCE_COUNT[style];
  if (count >= 2) parts.push(pick(MIDDLES, seed >>> 3)(subject, points));
  if (count >= 3) parts.push(pick(CLOSINGS, seed >>> 7));
  return parts.join(' ');
}
