import type { DriftKind } from '../../record/drift-kinds.js';
import type { BaselineCase } from '../../stored/baseline/types.js';
import type {
  CaseConversation,
  CaseEntry,
  CaseHistory,
  DistinctAnswer,
  PassRate,
  SampleCounts,
} from '../../stored/report/types.js';
import type { CaseStatus } from '../../core/words.js';
import type { CheckResult } from '../../checks/registry.js';
import type { DriftSeverity } from '../../record/drift-kinds.js';
import type { CaseError, Usage } from '../../core/answer.js';
import type { Message } from '../../core/messages.js';
import { REVIEW_RANK, type ReviewClass } from '../../fold/review.js';
import { errorPlace, placeText } from '../../fold/conversation.js';
import type { DetailPlace, DetailRow } from '../../record/field.js';
import { RECORDED_FIELDS } from '../../record/registry.js';
import type { ToolCall } from '../../core/tool-calls.js';
import type { Trajectory } from '../../record/fields/trajectory.js';
import { MAX_VIEW_TEXT_CHARS, shorten } from '../../util/shorten.js';

/** Above this many cases the page embeds shortened texts, so the file stays openable. */
export const LARGE_REPORT_CASES = 20_000;
/** Characters kept of each text (content, baseline content, message) in a large report. */
export const LARGE_REPORT_TEXT_CHARS = 2_048;

/**
 * How much of each text (prompt, answer, tool arguments) a page of `items` cases quotes:
 * every page is bounded (a 50 MB table cell made a 50 MB report.html), a large one more.
 */
export function pageTextLimit(items: number): number {
  return items > LARGE_REPORT_CASES ? LARGE_REPORT_TEXT_CHARS : MAX_VIEW_TEXT_CHARS;
}

/**
 * Where the baseline text comes from: `same` (equals the current text), `text` (carried in
 * `baseline_content`) or `none` (no baseline answer to compare).
 */
type BaselineText = 'same' | 'text' | 'none';

/** One case as the page's script reads it: the entry's fields, minus what only the JSON needs. */
export interface PageCase {
  id: string;
  suite: string;
  case: string;
  status: CaseStatus;
  /** Sort rank: the place of the fold's review class in its order (fold/review.ts REVIEW_ORDER). */
  rank: number;
  regressed: boolean;
  service: string;
  requested_model: string;
  model: string | null;
  models: string[];
  /** The recorded fields' rows of its details, each placed as its field says (src/record/fields/). */
  recorded: PageRow[];
  /** Words the recorded fields put on its row in the list (`streamed`); absent when none. */
  labels?: string[];
  /**
   * What arrived before its error, when content did (a stream broken off or stalled, an error
   * event after some content): of its first sample (`sample` 1, the text its `content`), or
   * of a later failing one (its number, and its text); null when no errored sample kept any.
   */
  partial: { sample: number; content: string | null } | null;
  finish_reason: string | null;
  usage: Usage | null;
  latency_ms: { p50: number; p95: number; max: number } | null;
  wait_ms: number;
  attempts: number;
  error: CaseError | null;
  /** Where a conversation's error happened (`turn 2, step 3`); null for a single request's or none. */
  error_place: string | null;
  cache_status: string | null;
  response_id: string | null;
  started_at: string | null;
  redacted: boolean;
  checks: CheckResult[];
  check_passes: number[];
  drift: { kind: DriftKind; severity: DriftSeverity; message: string; similarity?: number }[];
  messages: Message[];
  content: string | null;
  answers: DistinctAnswer[];
  other_answers: number;
  baseline: BaselineText;
  baseline_content: string | null;
  /** Texts were shortened to the page's text limit. */
  truncated: boolean;
  samples: SampleCounts;
  pass_rate: PassRate | null;
  /** From the nightly history, for a changed case: its last nights and when the change began. */
  history: CaseHistory | null;
  /** The first answer's tool calls, arguments pretty-printed; null when it made none. */
  tool_calls: PageCall[] | null;
  /** The baseline answer's calls, when they differ from tonight's (a call became text, other arguments). */
  baseline_tool_calls: PageCall[] | null;
  /** Calls past MAX_PAGE_CALLS the page leaves out, tonight's and the baseline's (report.json holds them); absent when none. */
  more_calls?: [number, number];
  /** A conversation (a tool loop, scripted turns) as a transcript; null for a single request. */
  transcript: PageTranscript | null;
  /** The baseline's trajectory, when tonight's changed against it (trajectory_changed, steps_changed). */
  baseline_trajectory: PageTranscript | null;
}

/** A conversation as the page shows it: its turns, each with its requests and its reply. */
export interface PageTranscript {
  turns: PageTurn[];
  /** Requests and calls past MAX_PAGE_STEPS and MAX_PAGE_CALLS the page leaves out (report.json holds them). */
  more_steps: number;
  more_calls: number;
}

/** One turn: its user message (null: the case's own messages, shown above), its requests and its reply. */
interface PageTurn {
  user: string | null;
  steps: PageStep[];
  /** The turn's reply; undefined where the page does not know it (the baseline's). */
  reply?: string | null;
}

/** One request: what served it, how it finished, and the calls its answer made with the results given. */
interface PageStep {
  n: number;
  model: string | null;
  provider: string | null;
  finish_reason: string | null;
  latency_ms: number | null;
  error: string | null;
  calls: { tool: string; arguments: string; result: string | null }[];
}

/** Most requests, and calls, of one conversation a page shows (max_steps is the suite's to choose). */
const MAX_PAGE_STEPS = 100;

/** A recorded field's row of a case's details, where the field places it (see RecordedField.detail). */
interface PageRow extends DetailRow {
  at: DetailPlace;
}

/**
 * The recorded fields' rows of a case with a text, each given what the case's baseline
 * stores of its field, their texts shortened to the page's limit.
 */
function recordedRows(c: CaseEntry, base: BaselineCase | undefined, limit: number): PageRow[] {
  const entry = c as unknown as Readonly<Record<string, unknown>>;
  // A recorded field is a baseline case's member by its name (RECORDED_FIELDS).
  const stored = base as Readonly<Record<string, unknown>> | undefined;
  return RECORDED_FIELDS.flatMap(([name, f]) =>
    f.detail
      ? f.detail
          .rows(entry, stored?.[name])
          .filter((r) => r.text !== null && r.text !== '')
          .map((r) => ({ ...r, at: f.detail!.at, text: clip(r.text, limit) }))
      : [],
  );
}

/** The words the recorded fields put on a case's row (`streamed`); absent when none does. */
function rowLabels(c: CaseEntry): { labels?: string[] } {
  const entry = c as unknown as Readonly<Record<string, unknown>>;
  const labels = RECORDED_FIELDS.flatMap(([, f]) => {
    const label = f.detail?.label?.(entry);
    return label ? [label] : [];
  });
  return labels.length ? { labels } : {};
}

/** A tool call as the page shows it: the tool, its arguments pretty-printed, why it is invalid. */
interface PageCall {
  name: string;
  arguments: string;
  invalid: string | null;
}

/** Most tool calls of one answer a page shows (one answer made 5,000). */
const MAX_PAGE_CALLS = 100;

/** How many calls of each list the page leaves out, when it leaves any out. */
function moreCalls(
  calls: readonly ToolCall[] | null | undefined,
  baseline: readonly ToolCall[] | null | undefined,
): { more_calls?: [number, number] } {
  const more = [calls, baseline].map((list) => Math.max(0, (list?.length ?? 0) - MAX_PAGE_CALLS));
  return more[0]! + more[1]! > 0 ? { more_calls: [more[0]!, more[1]!] } : {};
}

/** Calls as the page shows them (null for none); their arguments parsed and indented, else as sent. */
function pageCalls(calls: readonly ToolCall[] | null | undefined, limit: number): PageCall[] | null {
  if (!calls?.length) return null;
  return calls.slice(0, MAX_PAGE_CALLS).map((c) => ({
    name: c.name,
    arguments: clip(c.parsed !== null ? JSON.stringify(c.parsed, null, 2) : c.arguments, limit) ?? '',
    invalid: c.invalid ? `${c.invalid}${c.problem ? `: ${c.problem}` : ''}` : null,
  }));
}

/**
 * A conversation as its transcript: the requests of the case entry's `conversation` (what
 * served each), the calls and results of its `trajectory` by step, its turns' user messages
 * and replies (one turn, ending in the case's answer, without scripted turns). A trajectory
 * without a conversation (the baseline's, a report written before it) gives its requests
 * without what served them. Null without a trajectory or a conversation.
 */
export function transcriptOf(
  trajectory: Trajectory | null | undefined,
  conversation: CaseConversation | undefined,
  answer: { content: string | null } | null,
  limit: number,
): PageTranscript | null {
  const requests = conversation?.steps.length ?? trajectory?.steps ?? 0;
  if (requests === 0) return null;
  const calls = trajectory?.calls ?? [];
  const shown = Math.min(requests, MAX_PAGE_STEPS);
  const steps: PageStep[] = [];
  let left = MAX_PAGE_CALLS;
  let at = 0;
  for (let n = 1; n <= shown; n++) {
    const made: PageStep['calls'] = [];
    for (; at < calls.length && calls[at]!.step <= n; at++) {
      const call = calls[at]!;
      if (call.step < n || left === 0) continue;
      left--;
      made.push({
        tool: call.tool,
        arguments: clipText(call.arguments, limit),
        result: clip(call.result, limit),
      });
    }
    const s = conversation?.steps[n - 1];
    steps.push({
      n,
      model: s?.model ?? null,
      provider: s?.provider ?? null,
      finish_reason: s?.finish_reason ?? null,
      latency_ms: s?.latency_ms ?? null,
      error: s?.error ?? null,
      calls: made,
    });
  }
  const calledShown = steps.reduce((n, s) => n + s.calls.length, 0);
  const more = { more_steps: requests - shown, more_calls: calls.length - calledShown };
  const scripted = conversation?.turns;
  if (!scripted?.length) {
    const turn: PageTurn = { user: null, steps };
    if (answer) turn.reply = clip(answer.content, limit);
    return { turns: [turn], ...more };
  }
  let from = 0;
  const turns = scripted.map((t) => {
    const mine = steps.filter((s) => s.n > from && s.n <= t.last_step);
    from = t.last_step;
    return { user: clip(t.user, limit), steps: mine, reply: clip(t.content, limit) };
  });
  return { turns, ...more };
}

function errorPlaceOf(c: CaseEntry): string | null {
  const place = errorPlace(c);
  return place ? placeText(place) : null;
}

/** A message's text, or for an assistant turn that only called tools, its calls. */
function messageText(m: Message): string {
  if (m.content !== null) return m.content;
  return (m.tool_calls ?? []).map((t) => `${t.function.name}(${t.function.arguments})`).join('\n');
}

/**
 * A case the fold called `brief` (it passed every sample, nothing changed) as the page lists
 * it: a row of counts. Its prompt, answer and checks are in report.json, its samples in the
 * journal; the page says so. What the page's script fills in for it (status, rank) it
 * knows from `brief` alone: the fold's review class of a brief case is always `passed`.
 */
export interface BriefPageCase {
  id: string;
  brief: true;
  /** It is new (no baseline entry yet): the only drift a brief case can have. */
  new_case: boolean;
  model: string | null;
  passed: number;
  sent: number;
  /** Total tokens over its samples, when any sample reported usage. */
  tokens: number | null;
  /** Median latency over its samples. */
  latency_ms: number | null;
  /** Words the recorded fields put on its row (`streamed`); absent when none. */
  labels?: string[];
  /** A streamed case's median time to first token; absent for a case not streamed. */
  ttft_ms?: number | null;
}

/**
 * The baseline answer shown in the diff: the baseline entry's content when it differs from
 * tonight's, `same` when equal, `none` when there is nothing to compare.
 */
function baselineText(
  c: CaseEntry,
  base: BaselineCase | undefined,
): { baseline: BaselineText; text: string | null } {
  const changed = c.drift.find((d) => d.kind === 'content_changed');
  if (changed && typeof changed.baseline === 'string') return { baseline: 'text', text: changed.baseline };
  if (base === undefined || base.content === null) return { baseline: 'none', text: null };
  return base.content === c.content
    ? { baseline: 'same', text: null }
    : { baseline: 'text', text: base.content };
}

/** A text as a page quotes it: shortened to the page's limit, saying how much was left out. */
export function clipText(text: string, limit: number): string {
  return shorten(text, limit);
}

function clip(text: string | null, limit: number): string | null {
  return text === null ? null : clipText(text, limit);
}

/** A brief case's row (see BriefPageCase). */
function briefCase(c: CaseEntry): BriefPageCase {
  const streamed = c.streaming;
  return {
    id: c.id,
    brief: true,
    new_case: c.drift.some((d) => d.kind === 'new_case'),
    model: c.model,
    passed: c.samples.passed,
    sent: c.samples.sent,
    tokens: c.stats.with_usage > 0 ? c.stats.total_tokens : null,
    latency_ms: c.stats.latency_ms?.p50 ?? null,
    ...rowLabels(c),
    ...(streamed ? { ttft_ms: streamed.ttft_ms?.p50 ?? null } : {}),
  };
}

/**
 * What arrived before a case's error (PageCase.partial): an errored sample keeps the content
 * that came before its error (a stream broken off, an error event after content — what an
 * application had already shown); an empty one is no answer. The case's error is its first
 * failing sample's: the first (then its content is the case's) or the one kept whole.
 */
function partialAnswer(c: CaseEntry, limit: number): PageCase['partial'] {
  if (!c.error) return null;
  const failing = c.first_failure;
  if (!failing) return c.content ? { sample: 1, content: null } : null;
  return failing.error && failing.content
    ? { sample: failing.repeat + 1, content: clip(failing.content, limit) }
    : null;
}

/**
 * One case as the page embeds it, with the fold's review class as its rank: in full, or a
 * brief case as its row of counts. `limit` shortens every text of a large report; the
 * suite's `system` prompt is left out of the messages (the page holds it once per suite and
 * puts it back in front).
 */
export function pageCase(
  c: CaseEntry,
  review: ReviewClass,
  base: BaselineCase | undefined,
  limit: number,
  system?: string,
): PageCase | BriefPageCase {
  if (c.detail === 'brief') return briefCase(c);
  const compared = baselineText(c, base);
  const [first, ...own] = c.messages;
  const messages =
    system !== undefined && first?.role === 'system' && first.content === system ? own : c.messages;
  const content = clip(c.content, limit);
  const baselineContent = clip(compared.text, limit);
  const baselineCalls = c.drift.some(
    (d) => d.kind === 'tool_trigger_changed' || d.kind === 'tool_call_changed',
  )
    ? base?.tool_calls?.first
    : undefined;
  return {
    id: c.id,
    suite: c.suite,
    case: c.case,
    status: c.status,
    rank: REVIEW_RANK[review],
    regressed: review === 'regressed',
    service: c.service,
    requested_model: c.requested_model,
    model: c.model,
    models: c.models,
    recorded: recordedRows(c, base, limit),
    ...rowLabels(c),
    partial: partialAnswer(c, limit),
    finish_reason: c.finish_reason,
    usage: c.usage,
    latency_ms: c.stats.latency_ms,
    wait_ms: c.stats.wait_ms,
    attempts: c.stats.attempts,
    error: c.error,
    error_place: errorPlaceOf(c),
    cache_status: c.cache_status,
    response_id: c.response_id,
    started_at: c.started_at,
    redacted: c.redacted,
    checks: c.checks,
    check_passes: c.check_passes,
    drift: c.drift.map((d) => ({
      kind: d.kind,
      severity: d.severity,
      message: d.message,
      ...(d.similarity === undefined ? {} : { similarity: d.similarity }),
    })),
    messages: messages.map((m) => ({ role: m.role, content: clip(messageText(m), limit) ?? '' })),
    content,
    answers: c.answers.map((a) => ({ ...a, content: clip(a.content, limit) })),
    other_answers: c.other_answers,
    baseline: compared.baseline,
    baseline_content: baselineContent,
    truncated:
      content !== c.content ||
      baselineContent !== compared.text ||
      c.messages.some((m) => (m.content?.length ?? 0) > limit),
    samples: c.samples,
    pass_rate: c.pass_rate,
    history: c.history ?? null,
    tool_calls: pageCalls(c.tool_use?.first, limit),
    baseline_tool_calls: baselineCalls ? pageCalls(baselineCalls, limit) : null,
    ...moreCalls(c.tool_use?.first, baselineCalls),
    transcript: transcriptOf(c.trajectory, c.conversation, c, limit),
    baseline_trajectory: c.drift.some((d) => d.kind === 'trajectory_changed' || d.kind === 'steps_changed')
      ? transcriptOf(base?.trajectory, undefined, null, limit)
      : null,
  };
}
