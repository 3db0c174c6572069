import { createHash } from 'node:crypto';
import type { Expectation } from './registry.js';
import type { CheckResult } from './registry.js';
import type { Completion } from '../record/answer.js';
import type { CaseError, Usage } from '../core/answer.js';
import { type Message, type RequestParams, tokenCap, type TokenCapParam } from '../core/messages.js';
import { extractJson } from './extract-json.js';
import { writeJudgePrompt } from './judge-prompt.js';
import { quote } from './quote.js';

/** Room for a judge's one-sentence verdict, unless its `params` say otherwise. */
const JUDGE_MAX_TOKENS = 200;

/**
 * What a judge is sent: its own `params` as given (a reasoning model refuses temperature 0 and
 * needs room to think, so they replace the defaults whole), else a short, repeatable verdict —
 * temperature 0 and a 200-token cap under the name the judge's service gives its caps
 * (`max_tokens_param`: OpenAI's reasoning models refuse max_tokens).
 */
function judgeParams(spec: JudgeSpec, capParam: TokenCapParam = 'max_tokens'): RequestParams {
  return spec.params ? { ...spec.params } : { temperature: 0, [capParam]: JUDGE_MAX_TOKENS };
}

/** The judge's answer cap, for an estimate: its params', else the default's; null when its service's default applies. */
export function judgeCap(spec: JudgeSpec): number | null {
  return spec.params ? (tokenCap(spec.params)?.value ?? null) : JUDGE_MAX_TOKENS;
}

/** What to send the judge's service. */
export interface JudgeRequest {
  model: string;
  messages: Message[];
  params: RequestParams;
}

/** Longest judge reason kept in a check message. */
const MAX_REASON = 300;

/** Splits a case's expectations: local ones for runChecks, judges for the runner to call. */
export function splitExpectations(expect: readonly Expectation[]): {
  local: Expectation[];
  judges: JudgeSpec[];
} {
  const local: Expectation[] = [];
  const judges: JudgeSpec[] = [];
  for (const e of expect) {
    if (e.type === 'judge') judges.push(e.value);
    else local.push(e);
  }
  return { local, judges };
}

/** Whether any of a case's expectations is a judge (without splitting them: once per sample). */
export function hasJudges(expect: readonly Expectation[]): boolean {
  for (const e of expect) if (e.type === 'judge') return true;
  return false;
}

/**
 * The judge call for one answer: the fixed prompt (see judge-prompt.ts) as one user message,
 * sent with judgeParams. Equivalence is asked only when a baseline answer is given.
 */
export function buildJudgeRequest(
  spec: JudgeSpec,
  content: string,
  baselineContent: string | null,
  capParam?: TokenCapParam,
): JudgeRequest {
  const prompt = writeJudgePrompt({
    rubric: spec.rubric ?? null,
    baseline: spec.equivalent_to_baseline === true ? baselineContent : null,
    candidate: content,
  });
  return {
    model: spec.model,
    messages: [{ role: 'user', content: prompt }],
    params: judgeParams(spec, capParam),
  };
}

/**
 * Whether a judge has anything to judge: equivalence alone with no baseline answer (a new
 * case, or a baseline that errored) is skipped as a pass — nothing to compare with yet, and
 * the first run must be able to become the baseline.
 */
export function planJudge(
  spec: JudgeSpec,
  content: string,
  baselineContent: string | null,
  capParam?: TokenCapParam,
): { kind: 'ask'; request: JudgeRequest } | { kind: 'skip'; result: CheckResult } {
  if (spec.rubric === undefined && baselineContent === null) {
    const reason = 'no baseline answer to compare with yet';
    return {
      kind: 'skip',
      result: {
        type: 'judge',
        pass: true,
        message: `judge skipped: ${reason}`,
        judge: { model: null, usage: null, verdict: 'skipped', reason },
      },
    };
  }
  return { kind: 'ask', request: buildJudgeRequest(spec, content, baselineContent, capParam) };
}

/**
 * Reads the judge's verdict: a JSON object `{"verdict":"pass"|"fail","reason":…}` anywhere in
 * the answer (whole, fenced or in prose), else a `verdict: pass` line. Anything else fails
 * the check with a message saying what the judge said instead.
 */
export function parseJudgeVerdict(completion: Completion): CheckResult {
  const who = `judge ${completion.model ?? 'model'}`;
  const found = readVerdict(completion.content);
  if (found === null) {
    const cut = completion.finish_reason === 'length' ? ' (cut off at max_tokens)' : '';
    const reason = `no verdict in the judge's answer${cut}: ${quote(completion.content)}`;
    return {
      type: 'judge',
      pass: false,
      message: `${who}: ${reason}`,
      judge: { model: completion.model, usage: completion.usage, verdict: 'unparseable', reason },
    };
  }
  const reason = Array.from(found.reason).slice(0, MAX_REASON).join('');
  return {
    type: 'judge',
    pass: found.verdict === 'pass',
    message: `${who}: ${found.verdict}${reason ? ` — ${reason}` : ''}`,
    judge: { model: completion.model, usage: completion.usage, verdict: found.verdict, reason },
  };
}

/** A judge check whose call failed: it fails, and says why (the case's answer itself was fine). */
export function judgeCallFailed(
  spec: JudgeSpec,
  error: CaseError,
  completion: Completion | null,
): CheckResult {
  const reason = `${error.kind}: ${error.message}`;
  return {
    type: 'judge',
    pass: false,
    message: `judge ${spec.model}: the judge call failed (${reason})`,
    judge: {
      model: completion?.model ?? error.model,
      usage: completion?.usage ?? null,
      verdict: 'error',
      reason,
    },
  };
}

/**
 * A judge check a recheck could not keep: it sends nothing, so the check is not evaluated
 * and fails — never a silent pass — saying why and what would evaluate it.
 */
export function judgeNeedsCall(spec: JudgeSpec, why: string): CheckResult {
  const reason = `not evaluated: ${why}; a recheck sends nothing (run the suite to judge it)`;
  return {
    type: 'judge',
    pass: false,
    message: `judge ${spec.model}: ${reason}`,
    judge: { model: null, usage: null, verdict: 'needs_call', reason },
  };
}

/** Verdicts that are no call to the judge's service (counted apart from judge calls and their cost). */
export function madeJudgeCall(check: CheckResult): boolean {
  return (
    check.judge !== undefined && check.judge.verdict !== 'skipped' && check.judge.verdict !== 'needs_call'
  );
}

/** Verdicts a judge gave (or a judge's answer that held none): what a recheck may keep. */
export function isJudgeVerdict(check: CheckResult): boolean {
  const verdict = check.judge?.verdict;
  return verdict === 'pass' || verdict === 'fail' || verdict === 'unparseable';
}

/**
 * What the plan records of the baseline answer an `equivalent_to_baseline` judge compares
 * with: a digest (null: no answer), so a recheck can tell whether today's is the same
 * without the journal holding the answer again.
 */
export function judgeBaselineDigest(content: string | null): string | null {
  return content === null ? null : createHash('sha256').update(content).digest('hex');
}

const VERDICT_LINE = /"?verdict"?\s*[:=]\s*"?(pass|fail)\b/i;

function readVerdict(content: string): { verdict: 'pass' | 'fail'; reason: string } | null {
  const json = extractJson(content);
  if ('value' in json && typeof json.value === 'object' && json.value !== null) {
    const v = json.value as Record<string, unknown>;
    const verdict = typeof v.verdict === 'string' ? v.verdict.trim().toLowerCase() : '';
    if (verdict === 'pass' || verdict === 'fail') {
      return { verdict, reason: typeof v.reason === 'string' ? v.reason.trim() : '' };
    }
  }
  const line = VERDICT_LINE.exec(content);
  if (line === null) return null;
  return { verdict: line[1]!.toLowerCase() as 'pass' | 'fail', reason: '' };
}

/** `- judge:` expectation: a pinned model asked whether the answer is equivalent to the baseline or meets a rubric. */
export interface JudgeSpec {
  /** A concrete model id (never a ~alias). */
  model: string;
  /** Service to ask (a name under services:); default: the suite's. */
  service?: string;
  rubric?: string;
  equivalent_to_baseline?: boolean;
  /** The judge request's parameters, replacing the defaults (temperature 0, a 200-token cap). */
  params?: RequestParams;
}

/** What a judge call answered, recorded on its CheckResult like any other call. */
export interface JudgeCall {
  /** The concrete model that judged (null when the call failed before a model answered). */
  model: string | null;
  usage: Usage | null;
  /**
   * pass | fail as the judge said; unparseable, error (the call failed) or skipped otherwise;
   * needs_call: a recheck could not keep a stored verdict and sends nothing (not evaluated).
   */
  verdict: string;
  reason: string;
}
