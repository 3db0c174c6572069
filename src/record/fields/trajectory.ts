import type { TrajectoryStep } from '../../core/tool-calls.js';
import { nearestRankOfCounts } from '../../stats/nearest-rank.js';
import type { Fold, RecordedField } from '../field.js';
import { firstValue } from '../folds.js';
import { severityIn } from '../severity.js';

/** A tool loop as a case keeps it: how many requests it took, and its calls with the results given. */
export interface Trajectory {
  steps: number;
  calls: TrajectoryStep[];
}

/**
 * A case's trajectory: its first sample's and, when it was sampled more than once, the
 * median (nearest rank) of its samples' steps — what steps_changed compares.
 */
export interface CaseTrajectory extends Trajectory {
  median_steps?: number;
}

/**
 * Steps a tool loop may take beyond the baseline's before steps_changed (`drift.steps.extra`):
 * one more step (a model that reads a result twice) is common between two runs of one model;
 * a model that loops adds several.
 */
export const DEFAULT_EXTRA_STEPS = 1;

/** The first sample's trajectory, with `median_steps` over the samples when there are more than one. */
function firstWithMedianSteps(): Fold<Trajectory, CaseTrajectory | null> {
  const first = firstValue<Trajectory>();
  return {
    ...first,
    schema: (value) =>
      first.schema({
        ...value,
        properties: {
          ...(value.properties as Record<string, unknown>),
          median_steps: { type: 'integer', minimum: 1 },
        },
      }),
    // Steps → how many samples took them: a case sampled 100 times keeps a few counts.
    state: {
      start: () => null,
      add: (state, value) => {
        const counts = (state as Map<number, number> | null) ?? new Map<number, number>();
        counts.set(value.steps, (counts.get(value.steps) ?? 0) + 1);
        return counts;
      },
    },
    result: (state, kept) => {
      const counts = state as Map<number, number> | null;
      if (!kept.first || !counts) return kept.first;
      let samples = 0;
      for (const n of counts.values()) samples += n;
      return samples > 1 ? { ...kept.first, median_steps: nearestRankOfCounts(counts, 0.5)! } : kept.first;
    },
  };
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
  case: { trajectory: firstWithMedianSteps() },
  stats: { steps: stepsSum() },
  baseline: { from: 'trajectory' as const },
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
    diff: ({ baseline, current, candidate, tolerance }) => {
      const now = current.trajectory as CaseTrajectory | null | undefined;
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
      // Medians where a side was sampled more than once: one looping sample of twenty moves no median.
      const [was, is] = [stepsOf(baseline), stepsOf(now)];
      const extra = tolerance?.steps.extra ?? DEFAULT_EXTRA_STEPS;
      if (is > was + extra)
        out.push({
          kind: 'steps_changed' as const,
          severity: severityIn(KINDS.steps_changed, { candidate }),
          baseline: was,
          current: is,
          message: `took ${stepsText(now)}, ${baselineSteps(baseline)} (drift.steps.extra: ${extra})`,
        });
      return out;
    },
  },
} satisfies RecordedField<Trajectory, CaseTrajectory>;

const stepsOf = (t: CaseTrajectory): number => t.median_steps ?? t.steps;
const stepsText = (t: CaseTrajectory): string =>
  t.median_steps === undefined ? `${t.steps} steps` : `a median of ${t.median_steps} steps over its samples`;
const baselineSteps = (t: CaseTrajectory): string =>
  t.median_steps === undefined ? `the baseline ${t.steps}` : `the baseline's median ${t.median_steps}`;

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
