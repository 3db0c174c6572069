/**
 * Tool drift's power and size (issue 20): a provider whose valid-call rate falls from 100 %
 * to 90 % (the router moved a model to DeepInfra, whose arguments miss the schema in ~10 % of
 * calls), over a suite of 20 tool cases sampled `repeat: n` against baselines of n samples;
 * providers that do not change, at 100 % and at a standing 90 %; and the trigger rate (samples
 * that call a tool) standing, falling, and moving both ways in two cases at once.
 *
 * Each trial runs the product's own decision over the suite, `toolRateDrift`
 * (src/record/tool-rates.ts, what the suite fold calls through the tool_calls field): the
 * valid-call rate by the pass rates' rule — the exact stratified test over the 20 repeated
 * cases, one-sided at α = 0.05, gating Holm-adjusted per-case flags; the trigger rate, which
 * may move either way, by the stratified test each way at α/4 and per-case tests both ways
 * Holm-adjusted together at α/2 (not gated, so opposite moves cannot hide each other). A
 * suite is "flagged" when it gets the row's kind at all — the suite-level finding or any
 * case's — so a false alarm is a night with any such finding although no provider changed. Every sample of the valid-call rows calls a tool (a tool
 * suite's cases are written to), so the valid-call rate's total is the sample count. Part of
 * `npm run bench:verdicts`. Seeded.
 */
import { toolRateDrift } from '../src/record/tool-rates.js';
import type { ToolUse } from '../src/record/tool-use.js';
import { bernoulli, createRng, wilsonInterval } from '../src/stats/index.js';
import { printTable } from './table.js';

const CASES = 20;
const TRIALS = 5_000;
const SAMPLES = [10, 20, 40] as const;

type Kind = 'tool_call_invalid' | 'tool_trigger_changed';

interface Scenario {
  name: string;
  drift: boolean;
  /** The finding that counts: the valid-call rate's or the trigger rate's. */
  kind: Kind;
  /** [baseline rate, current rate] of every case: of valid calls, or of samples that call a tool. */
  rates: [number, number];
  /** Other rates for the first cases (the rest keep `rates`). */
  first?: [number, number][];
}

const SCENARIOS: Scenario[] = [
  {
    name: `${CASES} tool cases, valid calls 100% → 90%`,
    drift: true,
    kind: 'tool_call_invalid',
    rates: [1, 0.9],
  },
  {
    name: `no drift, ${CASES} tool cases at 100% valid`,
    drift: false,
    kind: 'tool_call_invalid',
    rates: [1, 1],
  },
  // A provider that always missed 1 call in 10 and still does: the test's size shows here.
  {
    name: `no drift, ${CASES} tool cases at 90% valid`,
    drift: false,
    kind: 'tool_call_invalid',
    rates: [0.9, 0.9],
  },
  // A model that answers in text 1 time in 10 and still does: the trigger rate's size, both ways.
  {
    name: `no drift, ${CASES} tool cases calling a tool 90% of the time`,
    drift: false,
    kind: 'tool_trigger_changed',
    rates: [0.9, 0.9],
  },
  // A model that starts answering in text 1 time in 10 in every case.
  {
    name: `${CASES} tool cases, calling a tool 100% → 90%`,
    drift: true,
    kind: 'tool_trigger_changed',
    rates: [1, 0.9],
  },
  // Moves in opposite directions cancel in a pooled sum: a pooled test gating the case flags
  // (as pass rates do) would miss this, so the trigger rate's case flags are not gated.
  {
    name: `1 tool case stops calling (100% → 0%), 1 starts (0% → 100%), ${CASES - 2} unchanged at 90%`,
    drift: true,
    kind: 'tool_trigger_changed',
    rates: [0.9, 0.9],
    first: [
      [1, 0],
      [0, 1],
    ],
  },
];

export interface ToolRow {
  scenario: string;
  drift: boolean;
  kind: Kind;
  samples: number;
  /** Share of trials with the row's kind anywhere: the suite-level finding or any case's. */
  suiteFlagged: number;
  interval: [number, number];
  /** Share of trials where the suite-level (stratified) test fired. */
  pooledFlagged: number;
  /** Share of cases flagged (Holm-adjusted), over every case of every trial. */
  caseFlagged: number;
  trials: number;
}

export interface ToolTarget {
  target: string;
  value: number;
  ok: boolean;
}

/** A case's tool use as a baseline or a case entry holds it: n samples, `triggered` of them calling, `valid` of those valid. */
function use(n: number, triggered: number, valid: number): ToolUse {
  return {
    answered: n,
    triggered,
    valid,
    trigger_rate: triggered / n,
    valid_rate: triggered === 0 ? null : valid / triggered,
    first: null,
    distinct: [],
    other_calls: 0,
  };
}

function count(sample: () => boolean, n: number): number {
  let k = 0;
  for (let i = 0; i < n; i++) if (sample()) k++;
  return k;
}

function runScenario(scenario: Scenario, samples: number, seed: number): ToolRow {
  const random = createRng(seed);
  const coins = Array.from({ length: CASES }, (_, c) => {
    const [was, now] = scenario.first?.[c] ?? scenario.rates;
    return { base: bernoulli(was, random), now: bernoulli(now, random) };
  });
  // The row's rate is drawn; the other is whole (every sample calls, or every call is valid).
  const draw = (hit: () => boolean): ToolUse => {
    const k = count(hit, samples);
    return scenario.kind === 'tool_call_invalid' ? use(samples, samples, k) : use(samples, k, k);
  };
  let suites = 0;
  let pooled = 0;
  let cases = 0;
  for (let t = 0; t < TRIALS; t++) {
    const suite = Array.from({ length: CASES }, (_, c) => ({
      case: `c${c}`,
      baseline: draw(coins[c]!.base),
      current: draw(coins[c]!.now),
    }));
    const judged = toolRateDrift(suite);
    const suiteFinding = judged.suiteDrift.some((d) => d.kind === scenario.kind);
    let flagged = 0;
    for (const list of judged.caseDrift.values()) if (list.some((d) => d.kind === scenario.kind)) flagged++;
    cases += flagged;
    if (suiteFinding) pooled++;
    if (suiteFinding || flagged > 0) suites++;
  }
  const { low, high } = wilsonInterval(suites, TRIALS);
  return {
    scenario: scenario.name,
    drift: scenario.drift,
    kind: scenario.kind,
    samples,
    suiteFlagged: suites / TRIALS,
    interval: [low, high],
    pooledFlagged: pooled / TRIALS,
    caseFlagged: cases / (TRIALS * CASES),
    trials: TRIALS,
  };
}

/** Every row and target of tool drift. */
export function toolBench(): { rows: ToolRow[]; targets: ToolTarget[] } {
  const rows = SCENARIOS.flatMap((s, i) => SAMPLES.map((n, j) => runScenario(s, n, 0x7001 + 10 * i + j)));
  const at40 = (i: number) => rows.find((r) => r.scenario === SCENARIOS[i]!.name && r.samples === 40)!;
  const [caught, quiet, standing, calling, texting] = [0, 1, 2, 3, 4].map(at40) as ToolRow[] as [
    ToolRow,
    ToolRow,
    ToolRow,
    ToolRow,
    ToolRow,
  ];
  const opposite = rows.find((r) => r.scenario === SCENARIOS[5]!.name && r.samples === 10)!;
  const worstStanding = Math.max(
    ...rows.filter((r) => !r.drift && r.scenario !== quiet.scenario).map((r) => r.suiteFlagged),
  );
  return {
    rows,
    targets: [
      {
        target: `tools: valid calls 100% → 90% over ${CASES} cases caught ≥ 90% (40 samples a case, tool_call_invalid of the suite or any case)`,
        value: caught.suiteFlagged,
        ok: caught.suiteFlagged >= 0.9,
      },
      {
        target: `tools: no provider change, ${CASES} cases at 100% valid: false alarms ≤ 5% (40 samples a case)`,
        value: quiet.suiteFlagged,
        ok: quiet.suiteFlagged <= 0.05,
      },
      {
        target: `tools: no provider change, ${CASES} cases at a standing 90% valid: false alarms ≤ 5% (40 samples a case)`,
        value: standing.suiteFlagged,
        ok: standing.suiteFlagged <= 0.05,
      },
      {
        target: `tools: no change, ${CASES} cases calling a tool 90% of the time: false alarms ≤ 5% (40 samples a case, tool_trigger_changed)`,
        value: calling.suiteFlagged,
        ok: calling.suiteFlagged <= 0.05,
      },
      {
        target: `tools: calling a tool 100% → 90% over ${CASES} cases caught ≥ 90% (40 samples a case, tool_trigger_changed)`,
        value: texting.suiteFlagged,
        ok: texting.suiteFlagged >= 0.9,
      },
      {
        target: `tools: 1 case stops calling a tool and 1 starts, caught ≥ 90% (10 samples a case, tool_trigger_changed)`,
        value: opposite.suiteFlagged,
        ok: opposite.suiteFlagged >= 0.9,
      },
      {
        // The suite test's size holds at every sample count, not only at the one the targets name.
        target: `tools: standing rates, worst false alarms over 10/20/40 samples a case ≤ 5%`,
        value: worstStanding,
        ok: worstStanding <= 0.05,
      },
    ],
  };
}

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;

export function printToolRows(rows: ToolRow[]): void {
  const header = [
    'tool drift over a suite (toolRateDrift)',
    'kind',
    'samples/case',
    'measure',
    'suite flagged',
    '95% CI',
    'pooled test',
    'cases flagged',
    'trials',
  ];
  const cells = rows.map((r) => [
    r.scenario,
    r.kind,
    String(r.samples),
    r.drift ? 'detection' : 'false alarms',
    pct(r.suiteFlagged),
    `${pct(r.interval[0])}–${pct(r.interval[1])}`,
    pct(r.pooledFlagged),
    pct(r.caseFlagged),
    String(r.trials),
  ]);
  printTable(header, cells);
}
