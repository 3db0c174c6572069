import { type TrendSource, trendSourceOf } from '../source.js';
import type { History, HistoryRunInput } from '../../stored/history/types.js';

/** A mark on the timeline: what changed on which night. */
export interface TimelineEvent {
  /** Index into the page's nights. */
  night: number;
  kind:
    | 'model_changed'
    | 'provider_changed'
    | 'latency_changed'
    | 'ttft_changed'
    | 'baseline_accepted'
    | 'paused'
    | 'forced';
  text: string;
}

const sameSet = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');
const list = (xs: readonly string[]): string => (xs.length > 0 ? xs.join(', ') : 'none');

/**
 * Model, provider and baseline changes of one suite, night over night, and the nights its
 * cases' latency or time to first token changed.
 */
export function suiteEvents(from: History | TrendSource, suite: string): TimelineEvent[] {
  const history = trendSourceOf(from);
  const events: TimelineEvent[] = [];
  let previous: { models: string[]; providers: string[]; baseline: string | null } | null = null;
  history.runs.forEach((run, night) => {
    const s = run.suites.find((x) => x.suite === suite);
    if (!s) return;
    const f = history.suiteNight(night, suite);
    if (f && f.slower > 0)
      events.push({
        night,
        kind: 'latency_changed',
        text: `latency changed: ${f.slower === 1 ? f.firstSlower! : `${f.slower} cases`}`,
      });
    if (f && f.ttftChanged > 0)
      events.push({
        night,
        kind: 'ttft_changed',
        text: `time to first token changed: ${f.ttftChanged === 1 ? f.firstTtftChanged! : `${f.ttftChanged} cases`}`,
      });
    if (previous) {
      // An empty list means "nobody answered" (a paused or failed night), not a change.
      if (s.models.length > 0 && previous.models.length > 0 && !sameSet(s.models, previous.models))
        events.push({
          night,
          kind: 'model_changed',
          text: `model ${list(previous.models)} → ${list(s.models)}`,
        });
      if (
        s.providers.length > 0 &&
        previous.providers.length > 0 &&
        !sameSet(s.providers, previous.providers)
      )
        events.push({
          night,
          kind: 'provider_changed',
          text: `provider ${list(previous.providers)} → ${list(s.providers)}`,
        });
      if (s.baseline_source_run !== null && s.baseline_source_run !== previous.baseline)
        events.push({ night, kind: 'baseline_accepted', text: `baseline from run ${s.baseline_source_run}` });
    }
    previous = {
      models: s.models.length > 0 ? s.models : (previous?.models ?? []),
      providers: s.providers.length > 0 ? s.providers : (previous?.providers ?? []),
      baseline: s.baseline_source_run ?? previous?.baseline ?? null,
    };
  });
  for (const b of history.baselines.filter((x) => x.suite === suite)) {
    const night = history.runs.findIndex((r) => r.started_at > b.at);
    if (night === -1) continue;
    if (!events.some((e) => e.kind === 'baseline_accepted' && e.night === night))
      events.push({ night, kind: 'baseline_accepted', text: `baseline accepted from run ${b.source_run}` });
  }
  return events.sort((a, b) => a.night - b.night);
}

/**
 * Runs that stopped early (paused on a budget, exit 3, or interrupted), and runs added as
 * nights although they were not (`--force`): a candidate, simulator, shard or filtered run.
 */
export function runEvents(runs: readonly HistoryRunInput[]): TimelineEvent[] {
  return runs.flatMap((run, night): TimelineEvent[] => [
    ...(run.status !== 'completed' || run.exit_code === 3
      ? [{ night, kind: 'paused' as const, text: `run ${run.status} (exit ${run.exit_code})` }]
      : []),
    ...(run.provenance?.forced
      ? [{ night, kind: 'forced' as const, text: `forced: not a night (${forcedWhat(run.provenance)})` }]
      : []),
  ]);
}

/** What a forced night was, in a few words. */
function forcedWhat(p: NonNullable<HistoryRunInput['provenance']>): string {
  const what = [
    ...(p.candidate ? [`candidate ${p.candidate}`] : []),
    ...(p.sim ? ['simulator'] : []),
    ...(p.shard ? [`shard ${p.shard.index}/${p.shard.total}`] : []),
    ...(p.partial ? ['partial'] : []),
  ];
  return what.join(', ') || 'forced';
}
