import type { TrajectoryStep } from '../../core/tool-calls.js';
import type { Fold, RecordedField } from '../field.js';
import { firstValue } from '../folds.js';
import { severityIn } from '../severity.js';

/** A tool loop as a case keeps it: how many requests it took, and its calls with the results given. */
export interface Trajectory {
  steps: number;
  calls: TrajectoryStep[];
}

const KINDS = {
  trajectory_changed: { severity: 'warn', candidate: 'info' },
  steps_changed: { severity: 'warn', candidate: 'info' },
} as const;

/** `trajectory`: a tool loop's (src/run/tool-loop.ts), set by the run; no single answer has one. */
export const trajectory = {
  schema: {
    type: 'object',
    required: ['steps', 'calls'],
    additionalProperties: false,
    properties: {
      steps: { type: 'integer', minimum: 1 },
      calls: {
        type: 'array',
        items: {
          type: 'object',
          required: ['step', 'tool', 'arguments', 'result'],
          additionalProperties: false,
          properties: {
            step: { type: 'integer', minimum: 1 },
            tool: { type: 'string' },
            arguments: { type: 'string' },
            result: { type: ['string', 'null'] },
          },
        },
      },
    },
  },
  extract: (): Trajectory | null => null,
  case: { trajectory: firstValue<Trajectory>() },
  stats: { steps: stepsSum() },
  baseline: { from: 'trajectory' },
  detail: {
    at: 'outcome',
    // The loop at a glance; report.html's transcript shows each call with the result given.
    rows: (c) => {
      const t = c.trajectory as Trajectory | null | undefined;
      return t ? [{ term: 'trajectory', text: `${sequence(t)} (${t.steps} steps)` }] : [];
    },
  },
  drift: {
    kinds: KINDS,
    diff: ({ baseline, current, candidate }) => {
      const now = current.trajectory as Trajectory | null | undefined;
      if (!baseline || !now) return [];
      const out = [];
      if (sequence(now) !== sequence(baseline))
        out.push({
          kind: 'trajectory_changed' as const,
          severity: severityIn(KINDS.trajectory_changed, { candidate }),
          baseline: names(baseline),
          current: names(now),
          message: `trajectory changed: ${sequence(now)} (baseline: ${sequence(baseline)})`,
        });
      if (now.steps > baseline.steps)
        out.push({
          kind: 'steps_changed' as const,
          severity: severityIn(KINDS.steps_changed, { candidate }),
          baseline: baseline.steps,
          current: now.steps,
          message: `took ${now.steps} steps, the baseline ${baseline.steps}`,
        });
      return out;
    },
  },
} satisfies RecordedField<Trajectory>;

/**
 * `stats.steps`: the requests of every sample added up (its mean is the steps per
 * conversation the history plots); a case line leaves it out when it is its one sample's.
 */
function stepsSum(): Fold<Trajectory, number> {
  return {
    schema: () => ({ type: 'integer', minimum: 0 }),
    state: { start: () => 0, add: (state, t) => (state as number) + t.steps },
    result: (state) => state as number,
    line: (entry) => (entry.trajectory as Trajectory | null | undefined)?.steps ?? 0,
  };
}

const names = (t: Trajectory): string[] => t.calls.map((c) => c.tool);
const sequence = (t: Trajectory): string => (t.calls.length ? names(t).join(' → ') : 'no call');
