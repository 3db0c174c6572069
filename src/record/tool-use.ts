import { callKey, type ToolCall } from '../core/tool-calls.js';
import type { Fold } from './field.js';

/** How many distinct calls a case entry lists; the rest are counted in `other_calls`. */
const DISTINCT_CALLS = 10;

/** One distinct call over a case's samples: the tool, its arguments (parsed, else the raw text), how often. */
interface DistinctCall {
  name: string;
  arguments: unknown;
  count: number;
  valid: boolean;
}

/**
 * A case's tool use over its answered samples (those that asked with tools or made calls):
 * how many finished with tool calls (`triggered`), and of those how many made only valid
 * calls (`valid`) — the router's tool-call error rate is 1 − valid ÷ triggered. `first` is
 * the first sample's calls ([] for a text answer), what a baseline keeps to compare calls.
 */
export interface ToolUse {
  answered: number;
  triggered: number;
  valid: number;
  trigger_rate: number;
  /** null when no sample made a call. */
  valid_rate: number | null;
  first: ToolCall[] | null;
  distinct: DistinctCall[];
  other_calls: number;
}

interface State {
  answered: number;
  triggered: number;
  valid: number;
  calls: Map<string, DistinctCall>;
}

const round = (x: number) => Math.round(x * 10000) / 10000;

/** The case-entry fold of `tool_calls`: rates and distinct calls (null when no sample had tools or calls). */
export function toolUse(): Fold<ToolCall[], ToolUse | null> {
  return {
    schema: () => ({ oneOf: [{ type: 'null' }, { $ref: '#/$defs/toolUse' }] }),
    state: {
      start: () => null,
      add: (state, calls) => {
        const s = (state as State | null) ?? { answered: 0, triggered: 0, valid: 0, calls: new Map() };
        s.answered++;
        if (calls.length === 0) return s;
        s.triggered++;
        if (calls.every((c) => c.valid)) s.valid++;
        for (const c of calls) {
          const args = c.parsed ?? c.arguments;
          const key = callKey(c);
          const seen = s.calls.get(key);
          if (seen) seen.count++;
          else s.calls.set(key, { name: c.name, arguments: args, count: 1, valid: c.valid });
        }
        return s;
      },
    },
    result: (state, kept) => {
      const s = state as State | null;
      if (s === null) return null;
      const all = [...s.calls.values()].sort((a, b) => b.count - a.count);
      const listed = all.slice(0, DISTINCT_CALLS);
      return {
        answered: s.answered,
        triggered: s.triggered,
        valid: s.valid,
        trigger_rate: round(s.triggered / s.answered),
        valid_rate: s.triggered === 0 ? null : round(s.valid / s.triggered),
        first: kept.first,
        distinct: listed,
        other_calls: all.slice(DISTINCT_CALLS).reduce((n, c) => n + c.count, 0),
      };
    },
  };
}
