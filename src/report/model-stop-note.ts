import type { ModelStop, RunInfo } from '../stored/report/types.js';

/**
 * The line every view shows of a model the run stopped sending to (run/model-stops.ts):
 * which model on which service, the answer that said it is missing, where it is pinned and
 * the catalog's closest ids.
 */
export function modelStopNote(stop: ModelStop): string {
  const e = stop.error;
  const status = `${e.kind}${e.http_status ? `, HTTP ${e.http_status}` : ''}`;
  const pinned = stop.pinned.length ? `; pinned at ${stop.pinned.join(', ')}` : '';
  return `stopped model ${stop.model} on service ${stop.service} (${status}: ${e.message}): its other cases were not sent${pinned}${stop.hint ? `; ${stop.hint}` : ''}`;
}

/** Why a run that went to its end exits 2: it stopped a model, and nothing else stopped it. */
export function exitsForModelStops(run: Pick<RunInfo, 'exit_code' | 'stop_reason' | 'model_stops'>): boolean {
  return run.exit_code === 2 && run.stop_reason === null && (run.model_stops?.length ?? 0) > 0;
}

/** The verdict's words for such a run (the views' own for exit 2 say a configuration stopped the run). */
export const MODEL_STOP_VERDICT = 'a model the service does not have was sent nothing more; the rest ran';
