import { caseOf, readBaseline } from '../baseline/store.js';
import type { Baseline, Config, Prices } from '../types.js';
import { type CostEstimate, estimateCost } from './cost-estimate.js';
import type { PlannedCaseGroup } from './plan.js';

/**
 * Estimates what sending these cases costs (estimateCost), reading each suite's baseline
 * for what its answers cost last time. Only a run with a cost cap reads them for this.
 */
export async function estimateRun(options: {
  cases: readonly PlannedCaseGroup[];
  config: Config;
  baselineDir: string;
  /** The config's `prices:` over the router's list. */
  prices: Prices;
  samplesLeft?: (group: PlannedCaseGroup) => number;
}): Promise<CostEstimate> {
  const baselines = new Map<string, Baseline | null>();
  for (const group of options.cases) {
    const suite = group.suite.suite;
    if (!baselines.has(suite)) baselines.set(suite, await readBaseline(options.baselineDir, suite));
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
