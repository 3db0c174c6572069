import type { Provenance, RunInfo } from '../stored/report/types.js';

/** The run facts provenance is derived from (a journal's run record, or a stored report's run). */
type RunFacts = Pick<RunInfo, 'sim' | 'candidate_model' | 'shard' | 'candidate_provider'> & {
  /** A recheck's record of the run it checked again (`of`: its id). */
  recheck?: { of: string } | undefined;
};

/** A `--model`/`--models`/`--providers` run: what served the answers was changed on purpose. */
export function isCandidateRun(run: {
  candidate_model?: string | null | undefined;
  candidate_provider?: string | null | undefined;
}): boolean {
  return Boolean(run.candidate_model || run.candidate_provider);
}

/**
 * How a candidate is named where one is shown (a refusal, a report header, the history):
 * the model, the provider it was pinned to, or both. Null for a nightly run.
 */
export function candidateLabel(run: Pick<RunInfo, 'candidate_model' | 'candidate_provider'>): string | null {
  const { candidate_model: model, candidate_provider: provider } = run;
  if (model && provider) return `${model} via provider ${provider}`;
  return model || (provider ? `provider ${provider}` : null);
}

/**
 * What a run is, from the facts its journal's run record already holds (sim, candidate
 * model, shard, whether every case was planned) and the command that folded it. The one
 * place provenance is derived: the fold writes it into report.json's `run`.
 */
export function provenanceFrom(
  run: RunFacts,
  complete: boolean,
  renderedBy: Provenance['rendered_by'],
): Provenance {
  return {
    kind: isCandidateRun(run) ? 'candidate' : 'nightly',
    sim: run.sim,
    shard: run.shard,
    complete,
    rendered_by: renderedBy,
    ...(run.recheck ? { recheck_of: run.recheck.of } : {}),
  };
}

/**
 * A stored report's provenance. Reports written before it existed have none: their `sim`,
 * `candidate_model` and `shard` say most of it, and a run that was not a shard is taken
 * as complete (a filter left no mark in them).
 */
export function provenanceOf(run: RunFacts & { provenance?: Provenance | undefined }): Provenance {
  return (
    run.provenance ??
    provenanceFrom({ ...run, sim: run.sim ?? false, shard: run.shard ?? null }, !run.shard, 'run')
  );
}

/** Why a run is not a plain nightly run of the real services. */
export type NotNightly = 'candidate' | 'sim' | 'shard' | 'filtered' | 'partial_merge' | 'recheck';

/** Every reason a run is not a nightly one, each with the words a refusal shows. */
export function notNightly(
  run: RunFacts & { provenance?: Provenance | undefined },
): { reason: NotNightly; text: string }[] {
  const p = provenanceOf(run);
  const out: { reason: NotNightly; text: string }[] = [];
  if (p.recheck_of)
    out.push({
      reason: 'recheck',
      text: `a recheck of run ${p.recheck_of} (its stored answers checked again: nothing was sent)`,
    });
  if (p.kind === 'candidate') {
    const flag = run.candidate_provider ? '--providers' : '--model';
    out.push({ reason: 'candidate', text: `a candidate run (${flag} ${candidateLabel(run) ?? '?'})` });
  }
  if (p.sim) out.push({ reason: 'sim', text: 'a simulator run (--sim)' });
  if (p.shard)
    out.push({
      reason: 'shard',
      text: `shard ${p.shard.index}/${p.shard.total} alone (merge the shards first)`,
    });
  else if (!p.complete)
    out.push(
      p.rendered_by === 'merge'
        ? { reason: 'partial_merge', text: 'a partial merge (--allow-partial: shards missing)' }
        : { reason: 'filtered', text: 'a filtered run (--filter or --failed: not every case)' },
    );
  return out;
}

/**
 * What each command refuses without being forced. `accept` (a baseline): answers from
 * another model or the simulator, or part of a sharded run (a filtered run is how one
 * accepts a few cases). `history_add`: what is not a whole night of the suites' own models
 * (a simulator night is allowed: someone added it by hand, and its line says so).
 * `run_history` (a run's own `history:` append): nightly, complete runs of the real
 * services only, since it happens without anyone asking.
 */
const REFUSED_BY: Record<'accept' | 'history_add' | 'run_history', ReadonlySet<NotNightly>> = {
  accept: new Set(['candidate', 'sim', 'shard', 'partial_merge', 'recheck']),
  history_add: new Set(['candidate', 'shard', 'filtered', 'partial_merge', 'recheck']),
  run_history: new Set(['candidate', 'sim', 'shard', 'filtered', 'partial_merge', 'recheck']),
};

/**
 * What no `--force` overrides. A recheck's answers are another run's, judged by checks that
 * may have changed since (and judges it could not call): a baseline taken from it would
 * record verdicts no service gave. Accept the run it rechecked, or run the suites again.
 */
const NEVER_FORCED: Record<'accept', ReadonlySet<NotNightly>> = {
  accept: new Set(['recheck']),
};

/** What `use` refuses of this run (empty: nothing), in the words of `notNightly`. */
export function refusals(use: keyof typeof REFUSED_BY, run: Parameters<typeof notNightly>[0]): string[] {
  return notNightly(run)
    .filter((n) => REFUSED_BY[use].has(n.reason))
    .map((n) => n.text);
}

/** What `use` refuses of this run even with `--force` (empty: nothing), in the words of `notNightly`. */
export function hardRefusals(
  use: keyof typeof NEVER_FORCED,
  run: Parameters<typeof notNightly>[0],
): string[] {
  return notNightly(run)
    .filter((n) => NEVER_FORCED[use].has(n.reason))
    .map((n) => n.text);
}
