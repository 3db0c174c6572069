import { DRIFT_SEVERITY } from '../../record/drift-kinds.js';
import type { StepsTolerance } from '../../record/field.js';
import { DEFAULT_EXTRA_STEPS } from '../../record/fields/trajectory.js';
import { DEFAULT_USAGE_TOLERANCE } from '../../record/usage-change.js';
import { LATENCY_TOLERANCE } from '../../record/timing-drift.js';
import type { ContentNormalization, DriftTolerance, LatencyTolerance, Suite } from '../../suite/types.js';

/** A drift tolerance with every field decided: what the comparisons actually use. */
export interface ResolvedTolerance {
  content: {
    normalize: ContentNormalization[];
    similarity: number;
    /** 'auto': structurally when both answers are JSON objects or arrays. */
    json: boolean | 'auto';
  };
  usage: { completion_tokens: number; total_tokens: number; cost: number };
  latency: Required<LatencyTolerance>;
  steps: Required<StepsTolerance>;
}

/**
 * What applies when neither suite nor case says otherwise: exact content (any byte change is
 * info-level drift, a warning below similarity 0.6), ±25 % usage and cost, latency
 * moved by more than half and more than 200 ms (a warning), and a tool loop taking more
 * than one step beyond the baseline's (DEFAULT_EXTRA_STEPS). Latency needs both: a 40 ms
 * answer taking 80 ms is +100 % of nothing, a 20 s one taking 20.3 s is 300 ms of noise.
 */
export const DEFAULT_TOLERANCE: ResolvedTolerance = {
  content: { normalize: [], similarity: 0.6, json: 'auto' },
  usage: {
    completion_tokens: DEFAULT_USAGE_TOLERANCE,
    total_tokens: DEFAULT_USAGE_TOLERANCE,
    cost: DEFAULT_USAGE_TOLERANCE,
  },
  latency: { ...LATENCY_TOLERANCE, severity: DRIFT_SEVERITY.latency_changed.severity },
  steps: { extra: DEFAULT_EXTRA_STEPS },
};

/**
 * Lays tolerances over each other field by field, later layers winning (run ← suite ← case).
 * A `normalize` list replaces the earlier one rather than adding to it, so a case can also
 * switch normalisation off with `normalize: []`.
 */
export function overlayTolerance(...layers: (DriftTolerance | undefined)[]): DriftTolerance {
  let content: NonNullable<DriftTolerance['content']> | undefined;
  let usage: NonNullable<DriftTolerance['usage']> | undefined;
  let latency: LatencyTolerance | undefined;
  let steps: StepsTolerance | undefined;
  for (const layer of layers) {
    if (layer?.content) content = { ...content, ...defined(layer.content) };
    if (layer?.usage) usage = { ...usage, ...defined(layer.usage) };
    if (layer?.latency) latency = { ...latency, ...defined(layer.latency) };
    if (layer?.steps) steps = { ...steps, ...defined(layer.steps) };
  }
  return {
    ...(content ? { content } : {}),
    ...(usage ? { usage } : {}),
    ...(latency ? { latency } : {}),
    ...(steps ? { steps } : {}),
  };
}

/** The tolerance a comparison uses: the layers over DEFAULT_TOLERANCE. */
export function mergeTolerance(...layers: (DriftTolerance | undefined)[]): ResolvedTolerance {
  const top = overlayTolerance(...layers);
  return {
    content: { ...DEFAULT_TOLERANCE.content, ...top.content },
    usage: { ...DEFAULT_TOLERANCE.usage, ...top.usage },
    latency: { ...DEFAULT_TOLERANCE.latency, ...top.latency },
    steps: { ...DEFAULT_TOLERANCE.steps, ...top.steps },
  };
}

/** Drops keys set to undefined, so spreading a layer never erases an earlier value. */
function defined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** A suite's own tolerance and its cases' overrides, keyed by case id — what diffSuite needs. */
export interface SuiteTolerances {
  suite?: DriftTolerance;
  cases: ReadonlyMap<string, DriftTolerance>;
}

/** Collects the `drift:` settings of a loaded suite for diffSuite. */
export function tolerancesOf(suite: Pick<Suite, 'drift' | 'cases'>): SuiteTolerances {
  const cases = new Map<string, DriftTolerance>();
  for (const c of suite.cases) if (c.drift !== undefined) cases.set(c.id, c.drift);
  return suite.drift !== undefined ? { suite: suite.drift, cases } : { cases };
}
