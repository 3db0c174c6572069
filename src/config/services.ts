import { judgeTargets } from '../checks/judge.js';
import type { Config, Diagnostic, Suite } from '../types.js';

/**
 * Every service the suites will call — each suite's (or `override`'s), and each judge's —
 * that the config does not define, as diagnostics at the suite that names it. `run` and
 * `validate` both ask this, so what validates also runs.
 */
export function unconfiguredServices(
  suites: readonly Suite[],
  config: Config,
  override?: string,
): Diagnostic[] {
  const seen = new Set<string>();
  const diagnostics: Diagnostic[] = [];
  for (const suite of suites) {
    const names = [override ?? suite.service, ...judgeTargets(suite).map((t) => t.service)];
    for (const name of names) {
      if (config.services[name] || seen.has(name)) continue;
      seen.add(name);
      diagnostics.push({
        ...suite.location,
        message: `service '${name}' is not configured`,
        hint: `configured services: ${Object.keys(config.services).join(', ') || 'none'} — add '${name}' under services: in ${config.file ?? 'driftcheck.config.yaml'}, or use one of those`,
      });
    }
  }
  return diagnostics;
}
