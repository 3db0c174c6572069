import { judgeTargets } from '../suite/judge-targets.js';
import type { CatalogReader } from '../service/check-models.js';
import { catalogHint } from '../core/catalog.js';
import type { Config } from '../config/types.js';
import type { Suite } from '../suite/types.js';
import type { ModelStop } from '../stored/report/types.js';
import type { JudgeSpec } from '../checks/judge.js';
import type { CaseError } from '../core/answer.js';
import type { PlanOptions } from '../stored/journal/records.js';

/**
 * The models a run has stopped sending to, the one place that knows them: a service that
 * answered `invalid_model` for a model (retired from its catalog, or mistyped) is sent that
 * model no more, while every other model and suite of the run goes on. The sender asks it
 * before each request (the sample's model, and its judges'); the fold asks it why a case
 * was not run. Filled from the run's answers as they come, and from the journal's
 * `model_stop` records when a run is resumed or folded again.
 */
export class ModelStops {
  private readonly stops = new Map<string, ModelStop>();
  /** Stopped before their record (pinned, hint) was made: the sender must not wait for it. */
  private readonly pending = new Map<string, CaseError>();

  /** Marks a model stopped by this answer; false when it already was. */
  stop(service: string, model: string, error: CaseError): boolean {
    const key = keyOf(service, model);
    if (this.stops.has(key) || this.pending.has(key)) return false;
    this.pending.set(key, error);
    return true;
  }

  /** Takes a stop's full record (made by modelStopRecord, or read from the journal); the first of a model stands. */
  add(stop: ModelStop): void {
    const key = keyOf(stop.service, stop.model);
    this.pending.delete(key);
    if (!this.stops.has(key)) this.stops.set(key, stop);
  }

  /** Why a model is stopped, or null. */
  errorOf(service: string, model: string): CaseError | null {
    const key = keyOf(service, model);
    return this.stops.get(key)?.error ?? this.pending.get(key) ?? null;
  }

  /**
   * Why a case of this model, asking these judges, is not sent (its model's stop, else its
   * first stopped judge's), or null when it may be sent.
   */
  reasonFor(service: string, model: string, judges: readonly JudgeSpec[] | undefined): CaseError | null {
    if (this.stops.size === 0 && this.pending.size === 0) return null;
    const own = this.errorOf(service, model);
    if (own) return own;
    for (const judge of judges ?? []) {
      const error = this.errorOf(judge.service ?? service, judge.model);
      if (error) return error;
    }
    return null;
  }

  get size(): number {
    return this.stops.size + this.pending.size;
  }

  /** The stops with their records, in the order they were decided. */
  list(): ModelStop[] {
    return [...this.stops.values()];
  }
}

const keyOf = (service: string, model: string): string => `${service}\n${model}`;

/**
 * A model stop's record: where the run took the model from (the suite files that pin it at
 * their `model:` line, judges' suites, or `--model`), and the service's closest catalog ids
 * for it (read when the stop happens; null when the list cannot be read or has none close).
 */
export async function modelStopRecord(
  stop: { service: string; model: string; error: CaseError },
  suites: readonly Suite[],
  plan: PlanOptions,
  config: Config,
  readCatalogs: CatalogReader,
): Promise<ModelStop> {
  const pinned = new Set<string>();
  for (const suite of suites) {
    const service = plan.service ?? suite.service;
    if (service === stop.service && (plan.model ?? suite.model) === stop.model) {
      const at = suite.model_location;
      pinned.add(plan.model ? '--model' : at ? `${at.file}:${at.line}:${at.column}` : suite.file);
    }
    if (judgeTargets({ ...suite, service }).some((j) => j.service === stop.service && j.model === stop.model))
      pinned.add(`${suite.file} (a judge)`);
  }
  const service = config.services[stop.service];
  const catalog = service ? ((await readCatalogs([service])).get(service.name) ?? null) : null;
  const listed = catalog?.some((m) => m.id === stop.model) ?? false;
  return {
    service: stop.service,
    model: stop.model,
    pinned: [...pinned],
    hint: catalog && !listed ? catalogHint(stop.model, catalog) : null,
    error: stop.error,
  };
}
