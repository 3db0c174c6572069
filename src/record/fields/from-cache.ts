import type { DetailRow, Fold, RecordedField } from '../field.js';
import { isRecord } from '../../util/is-record.js';
import { countOf } from '../../util/numbers.js';

/** How an answer came from a response cache: the service said so, or its usage says it may have. */
type FromCache = 'hit' | 'zero_usage';

/** Counts the samples whose value is `which`; a line leaves out 0. */
function samplesOf(which: FromCache): Fold<FromCache, number> {
  return {
    schema: () => ({ type: 'integer', minimum: 0 }),
    state: { start: () => 0, add: (state, value) => (value === which ? (state as number) + 1 : state) },
    result: (state) => state as number,
    line: () => 0,
  };
}

/**
 * Every billable usage counter the answer reports is 0, and it reports some: what the
 * router's response cache says of a hit (its response-caching guide). Absent usage says
 * nothing (absent is never zero).
 */
function zeroUsage(usage: unknown): boolean {
  if (!isRecord(usage)) return false;
  const counters = ['prompt_tokens', 'completion_tokens', 'total_tokens', 'cost'].map((k) => usage[k]);
  const reported = counters.filter((v) => v !== undefined && v !== null);
  return reported.length > 0 && reported.every((v) => v === 0);
}

/** The case's row: how many of its samples came, or may have come, from the cache. */
function cacheRow(c: Readonly<Record<string, unknown>>): DetailRow {
  const hits = typeof c.cache_hits === 'number' ? c.cache_hits : 0;
  const zero = typeof c.zero_usage === 'number' ? c.zero_usage : 0;
  if (hits + zero === 0) return { term: 'cache', text: null };
  const sent = isRecord(c.samples) && typeof c.samples.sent === 'number' ? c.samples.sent : hits + zero;
  const of = (n: number) => `${n} of ${countOf(sent, 'sample')}`;
  const parts = [
    ...(hits ? [`${of(hits)} came from the response cache (X-OpenRouter-Cache-Status: HIT)`] : []),
    ...(zero
      ? [
          `${of(zero)} reported every billable usage counter 0: possibly an earlier answer from the response cache`,
        ]
      : []),
  ];
  return { term: 'cache', text: `${parts.join('; ')} — not a fresh answer of the model`, mark: 'warn' };
}

/**
 * Whether an answer came from the router's response cache: `hit` when its
 * `X-OpenRouter-Cache-Status` says HIT; `zero_usage` when it sent no such header (MISS says
 * it did not) and every billable usage counter it reports is 0, as a cache hit's are. Only
 * for a kind of service that has such a cache (its adapter's `responseCache`). A cached
 * answer is an earlier one returned verbatim: a case entry counts its samples of each, and
 * its details warn, so none passes for a fresh sample silently.
 */
export const fromCache = {
  schema: { type: 'string', enum: ['hit', 'zero_usage'] },
  extract: ({ body, cache }): FromCache | null => {
    if (!cache) return null;
    const status = cache.status?.trim().toUpperCase() ?? null;
    if (status === 'HIT') return 'hit';
    if (status !== null) return null;
    return zeroUsage(body.usage) ? 'zero_usage' : null;
  },
  case: { cache_hits: samplesOf('hit'), zero_usage: samplesOf('zero_usage') },
  detail: { at: 'usage', rows: (c) => [cacheRow(c)] },
} satisfies RecordedField<FromCache>;
