import { judgeTargets } from '../suite/judge-targets.js';
import { didYouMean } from '../util/did-you-mean.js';
import { UsageError } from '../util/errors.js';
import type { Config, ServiceConfig } from './types.js';
import type { Suite } from '../suite/types.js';
import type { Diagnostic } from '../util/errors.js';

const suggest = (name: string, configured: readonly string[]): string => {
  const guess = didYouMean(name, configured);
  return guess ? ` (did you mean '${guess}'?)` : '';
};

/**
 * The service `--service NAME` names, or a usage error about the flag that says which are
 * configured, where, and the closest name. `run`, `verify` and `pin` all ask this.
 */
export function serviceNamed(config: Config, name: string): ServiceConfig {
  const service = config.services[name];
  if (service) return service;
  const configured = Object.keys(config.services);
  throw new UsageError(
    `--service: service '${name}' is not configured${suggest(name, configured)}\n  → configured services: ${configured.join(', ') || 'none'} (in ${config.file ?? 'the built-in defaults'})`,
  );
}

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
  const configured = Object.keys(config.services);
  // `--service NAME` is the command line's: said once, about the flag, not about a suite.
  if (override !== undefined) serviceNamed(config, override);
  for (const suite of suites) {
    const own = override ?? suite.service;
    const names = [own, ...judgeTargets(suite).map((t) => t.service)];
    for (const name of names) {
      if (config.services[name] || seen.has(name)) continue;
      seen.add(name);
      diagnostics.push({
        // At the suite's `service:` line when it is the suite's own service.
        ...(name === own && suite.service_location ? suite.service_location : suite.location),
        message: `service '${name}' is not configured${suggest(name, configured)}`,
        hint: `configured services: ${configured.join(', ') || 'none'} — add '${name}' under services: in ${config.file ?? 'driftcheck.config.yaml'}, or use one of those`,
      });
    }
  }
  return diagnostics;
}
