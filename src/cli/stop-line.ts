import { judgeTargets } from '../suite/judge-targets.js';
import { EXIT } from '../util/exit-codes.js';
import { countOf } from '../util/numbers.js';
import { isCostCapStop } from '../run/cost-cap.js';
import type { Config, ServiceConfig } from '../config/types.js';
import type { Suite } from '../suite/types.js';
import type { ReportHead } from '../stored/report/types.js';

/**
 * The line a run that did not complete ends with: what stopped it and what to do. A budget
 * pause and an interrupt are resumed as they are; an auth failure or a wrong base_url must be
 * fixed first, so their resume hint says so — neither is "paused" (exit 4 and 2 are not 3).
 * Null for a completed run.
 */
export function stopLine(
  head: ReportHead,
  resume: string,
  /** The services the failing request may have gone to (stopServices). */
  services: readonly ServiceConfig[],
): string | null {
  const { run, summary } = head;
  if (run.status === 'completed') return null;
  const error = run.stop_reason;
  const status = error ? ` (${error.kind}${error.http_status ? `, HTTP ${error.http_status}` : ''})` : '';
  const names = (show: (s: ServiceConfig) => string) =>
    services.length ? services.map(show).join(' or ') : 'the service in driftcheck.config.yaml';
  const fixed = `Once fixed, finish this run with: ${resume} (the cases it stopped on are sent again)`;
  switch (run.exit_code) {
    case EXIT.access:
      return error?.kind === 'permission'
        ? `stopped: permission failure${status} — check that the key in ${names(keyOf)} may use this model and endpoint. ${fixed}\n`
        : `stopped: authentication failure${status} — check the key in ${names(keyOf)}: set, current, not revoked. ${fixed}\n`;
    case EXIT.usage:
      return `stopped: endpoint not found${status} — check base_url of ${names((s) => `service '${s.name}' (${s.base_url})`)}. ${fixed}\n`;
    default:
      // The user's own cap: resuming under the same cap sends nothing, so the hint asks for more.
      if (isCostCapStop(error))
        return `${run.status}: ${error!.message}; ${countOf(summary.not_run, 'case')} not run. Resume with a larger cap (what was spent counts toward it): ${resume} --max-cost USD\n`;
      // A budget pause or an interrupt: nothing to fix, the rest is sent on resume.
      return `${run.status}: ${countOf(summary.not_run, 'case')} not run. Resume with: ${resume}\n`;
  }
}

/**
 * What a run says on stderr of each model it stopped sending to (run/model-stops.ts): the
 * model and the answer, where it is pinned, the catalog's closest ids, and what to do. The
 * rest of the run went on, so there is nothing to resume for it: the suite must be fixed.
 */
export function modelStopLines(head: ReportHead): string {
  return (head.run.model_stops ?? [])
    .map((stop) => {
      const e = stop.error;
      const status = `${e.kind}${e.http_status ? `, HTTP ${e.http_status}` : ''}`;
      const pinned = stop.pinned.length ? `\n  pinned at ${stop.pinned.join(', ')}` : '';
      const hint = stop.hint ? `\n  → ${stop.hint}` : '';
      return `stopped model ${stop.model}: service '${stop.service}' answered that it does not have it (${status}: ${e.message}); its other cases were not sent, every other model and suite ran${pinned}${hint}\n  → name a model the service lists (a retired one's successor: try it first with driftcheck run --model ID); the run exits 2 until then\n`;
    })
    .join('');
}

const keyOf = (s: ServiceConfig): string => `${s.api_key_env} (service '${s.name}')`;

/**
 * The services a run-stopping error can have come from: those the run called with the
 * error's model (its suites' and their judges'), else every service the run called.
 */
export function stopServices(head: ReportHead, suites: readonly Suite[], config: Config): ServiceConfig[] {
  const calls: { service: string; model: string }[] = [];
  for (const report of head.suites) {
    calls.push({ service: report.service, model: report.requested_model });
    const suite = suites.find((s) => s.suite === report.suite);
    if (suite) calls.push(...judgeTargets({ ...suite, service: report.service }));
  }
  const model = head.run.stop_reason?.model;
  const matching = calls.filter((c) => c.model === model);
  const names = new Set((matching.length ? matching : calls).map((c) => c.service));
  return [...names].flatMap((name) => (config.services[name] ? [config.services[name]] : []));
}
