import type { HistoryCaseInput, HistoryRunInput } from '../../src/stored/history/types.js';

/** A run record for tests: `night` (0-based) days after 2026-11-01, UTC. */
export function makeRun(night: number, overrides: Partial<HistoryRunInput> = {}): HistoryRunInput {
  const start = new Date(Date.UTC(2026, 10, 1, 2, 0, 0) + night * 86_400_000);
  const stamp = start.toISOString().replace(/[-:.]/g, '');
  return {
    run_id: `${stamp}-${(night % 65536).toString(16).padStart(4, '0')}`,
    started_at: start.toISOString(),
    finished_at: new Date(start.getTime() + 60_000).toISOString(),
    exit_code: 0,
    status: 'completed',
    suites: [{ suite: 'support', models: ['acme/chat-1'], providers: ['Acme'], baseline_source_run: null }],
    ...overrides,
  };
}

export function makeCase(name: string, overrides: Partial<HistoryCaseInput> = {}): HistoryCaseInput {
  return {
    suite: 'support',
    case: name,
    status: 'pass',
    samples: 10,
    passes: 10,
    error_kinds: [],
    drift_kinds: [],
    model: 'acme/chat-1',
    provider: 'Acme',
    tokens: { prompt: 1200, completion: 310, total: 1510 },
    cost: 0.00123,
    latency_p50_ms: 812,
    latency_p95_ms: 1490,
    tools: null,
    ...overrides,
  };
}
