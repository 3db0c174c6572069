import { CUSUM_DEFAULTS, type CusumOptions, runCusum } from '../stats/cusum.js';
import { type DriftSeverity, severityOf } from '../record/drift-kinds.js';
import { type CaseNight, resetIndex } from './nights.js';
import type { History } from '../stored/history/types.js';

export interface NightRef {
  run_id: string;
  started_at: string;
}

/** `pass_rate_trending_down`, shaped like a report Drift, plus the night the change began. */
export interface TrendDrift {
  kind: 'pass_rate_trending_down';
  severity: DriftSeverity;
  /** Pass rate before the change (the detector's reference). */
  baseline: number;
  /** Pass rate since the change began. */
  current: number;
  message: string;
  began: NightRef;
  raised: NightRef;
}

const ref = (night: CaseNight): NightRef => ({ run_id: night.run.run_id, started_at: night.run.started_at });

/** Start of the latest streak of one status; not-run nights neither break nor start one. */
export function firstChanged(nights: readonly CaseNight[]): NightRef | null {
  const ran = nights.filter((n) => n.entry.status !== 'not_run');
  const last = ran[ran.length - 1];
  if (!last) return null;
  for (let i = ran.length - 2; i >= 0; i--) {
    if (ran[i]!.entry.status !== last.entry.status) return ref(ran[i + 1]!);
  }
  return null;
}

/** The CUSUM over the nights since the suite's last reset, as a warning drift. */
export function trendOf(
  history: Pick<History, 'baselines'>,
  nights: readonly CaseNight[],
  options?: CusumOptions,
): TrendDrift | null {
  return trendStateOf(history, nights, options).alarm;
}

/** Where the detector stands on a case that raised no alarm: what its trend is held to. */
export interface TrendWatch {
  /** The pass counts the case is held to (its nights in control since the last reset). */
  reference: { passes: number; samples: number };
  /** Reference samples the detector needs before it may raise an alarm. */
  warmup: number;
  /** The first night of a dip being weighed now (the statistic above 0), else null. */
  since: NightRef | null;
}

/**
 * One pass of the detector over a case's nights since its suite's last reset: its alarm as
 * a warning drift, or, when it raised none, where it stands (what the trend page shows).
 */
export function trendStateOf(
  history: Pick<History, 'baselines'>,
  nights: readonly CaseNight[],
  options?: CusumOptions,
): { alarm: TrendDrift | null; watch: TrendWatch | null } {
  const first = nights[0];
  if (!first) return { alarm: null, watch: null };
  const since = nights.slice(resetIndex(history, first.entry.suite, nights));
  const { alarm, state } = runCusum(
    since.map((n) => ({ passes: n.entry.passes, samples: n.entry.samples })),
    options,
  );
  if (!alarm) {
    const dip = state.statistic > 0 ? since[state.excursion.start] : undefined;
    const warmup = options?.warmup ?? CUSUM_DEFAULTS.warmup;
    return { alarm: null, watch: { reference: state.reference, warmup, since: dip ? ref(dip) : null } };
  }
  const began = ref(since[alarm.began]!);
  const pct = (x: number): string => `${Math.round(100 * x)} %`;
  return {
    alarm: {
      kind: 'pass_rate_trending_down',
      severity: severityOf('pass_rate_trending_down'),
      baseline: alarm.before,
      current: alarm.after,
      message: `pass rate trending down: ${pct(alarm.before)} → ${pct(alarm.after)} since ${began.started_at.slice(0, 10)} (run ${began.run_id})`,
      began,
      raised: ref(since[alarm.raised]!),
    },
    watch: null,
  };
}
