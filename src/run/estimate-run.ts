import { caseOf } from '../stored/baseline/store.js';
import type { Config } from '../config/types.js';
import type { Baseline } from '../stored/baseline/types.js';
import type { Prices } from '../core/catalog.js';
import { type CostEstimate, estimateCost } from './cost-estimate.js';
import type { PlannedCaseGroup } from './plan.js';

/**
 * Estimates what sending these cases costs (estimateCost), from each suite's baseline: what
 * its answers cost last time. Only a run with a cost cap asks for them for this.
 */
export async function estimateRun(options: {
  cases: readonly PlannedCaseGroup[];
  config: Config;
  /** A suite's baseline (the run passes the ones it has just read; once each suite). */
  baseline: (suite: string) => Promise<Baseline | null>;
  /** The config's `prices:` over the router's list. */
  prices: Prices;
  samplesLeft?: (group: PlannedCaseGroup) => number;
}): Promise<CostEstimate> {
  const baselines = new Map<string, Baseline | null>();
  for (const group of options.cases) {
    const suite = group.suite.suite;
    if (!baselines.has(suite)) baselines.set(suite, await options.baseline(suite));
  }
  return estimateCost({
    cases: options.cases,
    ...(options.samplesLeft ? { samplesLeft: options.samplesLeft } : {}),
    baselineCase: (suite, caseId) => caseOf(baselines.get(suite), caseId),
    prices: options.prices,
    maxTokens: (service) => options.config.services[service]?.max_tokens ?? 0,
  });
}

/** The prices a cost cap counts with: the config's `prices:` over what the router lists. */
export function capPrices(config: Config, listPrices: Prices | undefined): Prices {
  return { ...listPrices, ...config.prices };
}
