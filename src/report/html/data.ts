import type {
  CaseError,
  CaseResult,
  CaseStats,
  CaseStatus,
  CheckResult,
  DriftKind,
  DriftSeverity,
  Message,
  Report,
  Usage,
} from '../../types.js';
import { isRegressed } from '../verdict.js';

/** What the page may know about a case's baseline entry, keyed by `suite/case`. */
export interface HtmlBaselineCase {
  content: string | null;
  usage?: Usage | null;
}
/**
 * The baseline entries the page may use: keyed by `suite/case`, or looked up by suite and
 * case id (what `run` passes: a copy of 100,000 entries under new keys cost 10 MB).
 */
export type HtmlBaselines =
  | Record<string, HtmlBaselineCase | undefined>
  | ((suite: string, caseId: string) => HtmlBaselineCase | undefined);

/** A case's baseline entry, from either form of HtmlBaselines. */
export function baselineOf(
  baselines: HtmlBaselines,
  suite: string,
  caseId: string,
): HtmlBaselineCase | undefined {
  return typeof baselines === 'function' ? baselines(suite, caseId) : baselines[`${suite}/${caseId}`];
}

/** Above this many cases the page embeds shortened texts, so the file stays openable. */
export const LARGE_REPORT_CASES = 20_000;
/** Characters kept of each text (content, baseline content, message) in a large report. */
export const LARGE_REPORT_TEXT_CHARS = 2_048;

/**
 * Where the baseline text comes from: `same` (no content drift: equals the current text),
 * `text` (carried in `baseline_content`) or `none` (no baseline answer to compare).
 */
export type BaselineText = 'same' | 'text' | 'none';

/** One case as the page's script reads it: the report's fields, minus what only the JSON needs. */
export interface PageCase {
  key: string;
  suite: string;
  case: string;
  repeat: number;
  status: CaseStatus;
  /** Sort rank: regressions first, then errors, failures, warnings, not run, info drift, passes. */
  rank: number;
  regressed: boolean;
  service: string;
  requested_model: string;
  model: string | null;
  finish_reason: string | null;
  usage: Usage | null;
  latency_ms: number | null;
  wait_ms: number;
  attempts: number;
  error: CaseError | null;
  attempt_errors: CaseError[];
  cache_status: string | null;
  response_id: string | null;
  started_at: string | null;
  redacted: boolean;
  checks: CheckResult[];
  drift: { kind: DriftKind; severity: DriftSeverity; message: string; similarity?: number }[];
  messages: Message[];
  content: string | null;
  baseline: BaselineText;
  baseline_content: string | null;
  /** Texts were shortened to LARGE_REPORT_TEXT_CHARS. */
  truncated: boolean;
  /** The case's pass-rate statistics when it was repeated. */
  pass_rate: CaseStats | null;
}

export interface PageData {
  cases: PageCase[];
  /** Set when texts were shortened (a report above LARGE_REPORT_CASES cases). */
  text_limit: number | null;
}

/**
 * Regressions first, then errors, failures, warnings; passes last. A failed sample of a
 * repeated case whose pass rate does not fail is noise and ranks with the warnings.
 */
function rankOf(c: CaseResult, stat: CaseStats | undefined): number {
  if (isRegressed(c)) return 0;
  if (c.status === 'error') return 1;
  if (c.status === 'fail' && stat?.failing !== false) return 2;
  if (c.status === 'fail' || c.drift.some((d) => d.severity === 'warn')) return 3;
  if (c.status === 'not_run') return 4;
  if (c.drift.some((d) => d.kind !== 'new_case')) return 5;
  return 6;
}

/**
 * The baseline answer shown in the diff. A `content_changed` drift carries it; otherwise
 * an answer compared against a passing-or-failing baseline equals it (no content drift),
 * and a new case, an error, or a baseline that errored has none unless the caller passed it.
 */
function baselineText(c: CaseResult, hasBaseline: boolean, given: HtmlBaselineCase | undefined) {
  const changed = c.drift.find((d) => d.kind === 'content_changed');
  if (changed && typeof changed.baseline === 'string')
    return { baseline: 'text' as const, text: changed.baseline };
  if (given !== undefined) {
    if (given.content === null) return { baseline: 'none' as const, text: null };
    return given.content === c.content
      ? { baseline: 'same' as const, text: null }
      : { baseline: 'text' as const, text: given.content };
  }
  const noComparison = c.drift.some(
    (d) => d.kind === 'new_case' || d.kind === 'new_error' || d.kind === 'fixed',
  );
  if (!hasBaseline || noComparison || c.status === 'error' || c.status === 'not_run' || c.content === null)
    return { baseline: 'none' as const, text: null };
  return { baseline: 'same' as const, text: null };
}

function clip(text: string | null, limit: number | null): string | null {
  if (text === null || limit === null || text.length <= limit) return text;
  return `${text.slice(0, limit)}…`;
}

/**
 * The page's cases in page order, each built only when asked for: the renderer embeds
 * one and drops it before building the next, so a large report never holds a second
 * copy of every case. Only the sort keys are computed up front.
 */
export function pageCases(
  report: Report,
  baselines: HtmlBaselines = {},
): { text_limit: number | null; cases: () => Generator<PageCase> } {
  const limit = report.cases.length > LARGE_REPORT_CASES ? LARGE_REPORT_TEXT_CHARS : null;
  const withBaseline = new Set(report.suites.filter((s) => s.baseline !== null).map((s) => s.suite));
  const stats = new Map(
    report.suites.flatMap((x) => x.pass_rates.map((p) => [`${x.suite}/${p.case}`, p] as const)),
  );
  const statOf = (c: CaseResult) => stats.get(`${c.suite}/${c.case}`);
  const ranks = report.cases.map((c) => rankOf(c, statOf(c)));
  const order = ranks.map((_, i) => i).sort((x, y) => ranks[x]! - ranks[y]! || x - y);
  return {
    text_limit: limit,
    *cases() {
      for (const i of order) yield pageCase(report.cases[i]!, ranks[i]!);
    },
  };

  function pageCase(c: CaseResult, rank: number): PageCase {
    const stat = statOf(c);
    const base = baselineText(c, withBaseline.has(c.suite), baselineOf(baselines, c.suite, c.case));
    const content = clip(c.content, limit);
    const baselineContent = clip(base.text, limit);
    return {
      key: c.key,
      suite: c.suite,
      case: c.case,
      repeat: c.repeat,
      status: c.status,
      rank,
      regressed: isRegressed(c),
      service: c.service,
      requested_model: c.requested_model,
      model: c.model,
      finish_reason: c.finish_reason,
      usage: c.usage,
      latency_ms: c.latency_ms,
      wait_ms: c.wait_ms,
      attempts: c.attempts,
      error: c.error,
      attempt_errors: c.attempt_errors,
      cache_status: c.cache_status ?? null,
      response_id: c.response_id,
      started_at: c.started_at,
      redacted: c.redacted,
      checks: c.checks,
      drift: c.drift.map((d) => ({
        kind: d.kind,
        severity: d.severity,
        message: d.message,
        ...(d.similarity === undefined ? {} : { similarity: d.similarity }),
      })),
      messages: c.messages.map((m) => ({ role: m.role, content: clip(m.content, limit) ?? '' })),
      content,
      baseline: base.baseline,
      baseline_content: baselineContent,
      truncated:
        content !== c.content ||
        baselineContent !== base.text ||
        c.messages.some((m) => m.content.length > (limit ?? Infinity)),
      pass_rate: stat ?? null,
    };
  }
}
