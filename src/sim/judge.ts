import { normalizeContent } from '../fold/drift/normalize.js';
import { similarity } from '../util/similarity.js';
import { type JudgePrompt, readJudgePrompt } from '../checks/judge-prompt.js';
import { foldCase } from '../checks/text.js';

/** Similarity (after whitespace and case normalisation) at which the simulated judge calls answers equivalent. */
const SIM_JUDGE_EQUIVALENCE = 0.6;

const QUOTED = /"([^"]+)"|“([^”]+)”/g;

/** The phrases a rubric quotes (straight or curly double quotes): what the answer must mention. */
function quotedPhrases(rubric: string): string[] {
  return [...rubric.matchAll(QUOTED)].map((m) => (m[1] ?? m[2] ?? '').trim()).filter((p) => p !== '');
}

/**
 * The simulator's deterministic judge. Rubric: every phrase the rubric quotes must appear in
 * the answer, ignoring case (a rubric that quotes nothing passes). Equivalence: the answer's
 * similarity to the baseline answer, after whitespace and case normalisation, must be at least
 * SIM_JUDGE_EQUIVALENCE. Both are required when both are asked; the first failure is the reason.
 */
function simJudgeVerdict(prompt: JudgePrompt): { verdict: 'pass' | 'fail'; reason: string } {
  const reasons: string[] = [];
  if (prompt.rubric !== null) {
    const answer = foldCase(prompt.candidate);
    const phrases = quotedPhrases(prompt.rubric);
    const missing = phrases.find((p) => !answer.includes(foldCase(p)));
    if (missing !== undefined) {
      return { verdict: 'fail', reason: `the answer does not mention ${JSON.stringify(missing)}` };
    }
    reasons.push(
      phrases.length > 0
        ? `mentions ${phrases.map((p) => JSON.stringify(p)).join(', ')}`
        : 'meets the rubric',
    );
  }
  if (prompt.baseline !== null) {
    const norm = (t: string) => normalizeContent(t, ['whitespace', 'case']);
    const score = similarity(norm(prompt.baseline), norm(prompt.candidate));
    const shown = score.toFixed(2);
    if (score < SIM_JUDGE_EQUIVALENCE) {
      return {
        verdict: 'fail',
        reason: `the answer differs from the baseline (similarity ${shown} < ${SIM_JUDGE_EQUIVALENCE})`,
      };
    }
    reasons.push(`equivalent to the baseline (similarity ${shown})`);
  }
  return { verdict: 'pass', reason: `the answer ${reasons.join(' and ')}` };
}

/**
 * The simulated judge's reply to a judge prompt (null for any other text). Terse models answer
 * with the bare JSON line; wordy ones wrap it in prose and a fence, as real models do, so the
 * verdict parser is exercised both ways.
 */
export function judgeAnswer(text: string, wordy: boolean): string | null {
  const prompt = readJudgePrompt(text);
  if (prompt === null) return null;
  const line = JSON.stringify(simJudgeVerdict(prompt));
  return wordy ? `Here is my verdict:\n\`\`\`json\n${line}\n\`\`\`` : line;
}
