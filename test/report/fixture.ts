import type { PageCase } from '../../src/report/html/data.js';
import type { CaseEntry, Report, SuiteReport } from '../../src/stored/report/types.js';
import type { SampleResult } from '../../src/stored/journal/records.js';
import type { Drift } from '../../src/record/drift-kinds.js';
import { caseDetail } from '../../src/stored/report/case-line.js';
import { entryOf, reportOf } from '../helpers/entries.js';
import { sampleResult } from '../helpers/results.js';

/** The data the page embeds for its script. */
export interface PageData {
  cases: PageCase[];
  text_limit: number | null;
}

/** A passing case of suite `support` sampled once, with any sample field overridden, and its drift. */
export function makeCase(
  overrides: Partial<SampleResult> & { case: string; drift?: Drift[]; messages?: CaseEntry['messages'] },
): CaseEntry {
  const { drift, messages, ...sample } = overrides;
  const entry = entryOf(
    sampleResult({
      suite: 'support',
      usage: { prompt_tokens: 12, completion_tokens: 20, total_tokens: 32, cost: 0.0001 },
      latency_ms: 120,
      started_at: '2026-11-22T05:00:01.000Z',
      ...sample,
    }),
    drift ?? [],
  );
  return messages ? { ...entry, messages } : entry;
}

export const regressedDrift = (now = 'fails 1 check (contains)'): Drift => ({
  kind: 'regressed',
  severity: 'fail',
  baseline: 'pass',
  current: 'fail',
  message: `regressed: passed in the baseline, now ${now}`,
});

export const contentDrift = (baseline: string, current: string, similarity = 0.7): Drift => ({
  kind: 'content_changed',
  severity: similarity >= 0.6 ? 'info' : 'warn',
  baseline,
  current,
  similarity,
  message: `content changed (similarity ${similarity.toFixed(2)})`,
});

/** The demo's findings in miniature: a regression with changed content, an error, a failure, a drift, passes. */
export function sampleCases(): CaseEntry[] {
  return [
    makeCase({ case: 'greeting' }),
    makeCase({
      case: 'refund-window',
      status: 'fail',
      content: 'Refunds are accepted within 14 days of purchase, with the receipt.',
      checks: [
        {
          type: 'contains',
          pass: false,
          message:
            'expected content to contain "30 days", got "Refunds are accepted within 14 days of purchase, with the receipt."',
        },
      ],
      drift: [
        regressedDrift(),
        contentDrift(
          'Refunds are accepted within 30 days of purchase.',
          'Refunds are accepted within 14 days of purchase, with the receipt.',
          0.55,
        ),
      ],
    }),
    makeCase({
      case: 'warranty',
      status: 'error',
      content: null,
      finish_reason: null,
      usage: null,
      checks: [],
      error: {
        kind: 'empty_choices',
        http_status: 200,
        type: null,
        code: null,
        message: 'the response has an empty choices array',
        model: 'openai/gpt-4o-mini',
      },
      drift: [
        {
          kind: 'new_error',
          severity: 'fail',
          baseline: 'pass',
          current: { kind: 'empty_choices', message: 'the response has an empty choices array' },
          message: 'new error: empty_choices: the response has an empty choices array',
        },
        regressedDrift('errors (empty_choices)'),
      ],
    }),
    makeCase({
      suite: 'direct',
      case: 'release-notes',
      service: 'direct',
      requested_model: 'kimi-k2-0905-preview',
      model: 'kimi-k2-0905-preview-2',
      finish_reason: 'length',
      status: 'fail',
      checks: [
        { type: 'finish_reason', pass: false, message: 'expected finish_reason "stop", got "length"' },
      ],
      drift: [
        {
          kind: 'model_changed',
          severity: 'warn',
          baseline: 'kimi-k2-0905-preview',
          current: 'kimi-k2-0905-preview-2',
          message: 'model changed: kimi-k2-0905-preview → kimi-k2-0905-preview-2',
        },
      ],
    }),
    makeCase({
      case: 'tone',
      drift: [
        {
          kind: 'usage_changed',
          severity: 'warn',
          baseline: { prompt_tokens: 12, completion_tokens: 20, total_tokens: 32 },
          current: { prompt_tokens: 12, completion_tokens: 60, total_tokens: 72 },
          message: 'usage changed: completion_tokens 20 → 60 (+200%)',
        },
      ],
    }),
    makeCase({
      case: 'paused',
      status: 'not_run',
      content: null,
      usage: null,
      checks: [],
      latency_ms: null,
      model: null,
    }),
  ];
}

/** A report around the given cases, counted the one way every reporter counts. */
export function makeReport(
  cases: CaseEntry[],
  extra: { suites?: SuiteReport[]; exit_code?: 0 | 1 | 3 } = {},
): Report {
  return reportOf(cases, extra);
}

const WORDS =
  'the refund window is thirty days from purchase and requires a receipt for every order we ship'.split(' ');

/** `n` cases over a few suites, about one in ten failing, regressed or drifted; deterministic. */
export function manyCases(n: number): CaseEntry[] {
  const out: CaseEntry[] = [];
  for (let i = 0; i < n; i++) {
    const words = Array.from({ length: 40 + (i % 30) }, (_, j) => WORDS[(i * 7 + j * 3) % WORDS.length]);
    const content = words.join(' ');
    const suite = `suite-${i % 5}`;
    const base = makeCase({ suite, case: `case-${String(i).padStart(5, '0')}`, content });
    if (i % 10 === 3) {
      const before = words.slice().reverse().join(' ');
      out.push({
        ...base,
        status: 'fail',
        checks: [{ type: 'contains', pass: false, message: 'expected content to contain "30 days"' }],
        drift: [regressedDrift(), contentDrift(before, content, 0.4)],
      });
    } else if (i % 10 === 7) {
      out.push({ ...base, drift: [contentDrift(`${content} Thank you.`, content, 0.9)] });
    } else if (i % 50 === 11) {
      out.push({
        ...base,
        status: 'error',
        content: null,
        checks: [],
        error: {
          kind: 'rate_limited',
          http_status: 429,
          type: null,
          code: '429',
          message: 'rate limited',
          model: base.model,
        },
      });
    } else out.push(base);
  }
  // Statuses and drift were changed after makeCase: decide what a reviewer sees as the fold does.
  return out.map((c) => ({ ...c, detail: caseDetail(c) }));
}

/**
 * Repeated cases: `noisy` failed one sample of five but its pass rate holds (it passes);
 * `dropped` failed three of five and its pass rate dropped (it fails).
 */
export function repeatedReport(): Report {
  const repeated = (id: string, passed: number, dropped: boolean): CaseEntry => {
    const failing = { type: 'contains' as const, pass: false, message: 'expected "30 days"' };
    const entry = makeCase({
      case: id,
      status: dropped ? 'fail' : 'pass',
      ...(dropped ? { checks: [failing] } : {}),
      drift: dropped
        ? [
            {
              kind: 'pass_rate_dropped',
              severity: 'fail',
              baseline: { pass: 5, total: 5 },
              current: { pass: passed, total: 5 },
              message: `pass rate 100% (5/5) → ${passed * 20}% (${passed}/5), p = 0.004 (alpha 0.05)`,
            },
          ]
        : [],
    });
    const samples = { planned: 5, sent: 5, passed, failed: 5 - passed, errored: 0, not_run: 0 };
    return {
      ...entry,
      // A sample failed: the fold shows it in full (caseDetail), stable pass rate or not.
      detail: caseDetail({ ...entry, samples }),
      samples,
      check_passes: [passed],
      pass_rate: {
        rate: passed / 5,
        low: 0.2,
        high: 0.95,
        baseline: { pass: 5, total: 5 },
        p: dropped ? 0.004 : 0.5,
        verdict: dropped ? 'dropped' : 'stable',
      },
    };
  };
  return makeReport([repeated('noisy', 4, false), repeated('dropped', 2, true)]);
}

/** The inline `<script>` or `<style>` blocks of a page, with their attributes. */
export function inlineBlocks(html: string, tag: 'script' | 'style'): { attrs: string; body: string }[] {
  return [...html.matchAll(new RegExp(`<${tag}([^>]*)>([\\s\\S]*?)</${tag}>`, 'g'))].map((m) => ({
    attrs: m[1]!,
    body: m[2]!,
  }));
}

/** The data the page embeds for its script (cases in plan order; the page sorts them itself). */
export function embedded(html: string): PageData {
  const block = inlineBlocks(html, 'script').find((b) => b.attrs.includes('application/json'))!;
  return JSON.parse(block.body) as PageData;
}
