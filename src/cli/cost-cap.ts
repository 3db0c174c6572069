import { formatUsd } from '../util/numbers.js';
import { judgeTargets } from '../suite/judge-targets.js';
import { UsageError } from '../util/errors.js';
import { type CostCap, capLabel } from '../run/cost-cap.js';
import {
  type CostEstimate,
  describeEstimate,
  overCapMessage,
  pricesFromCatalogs,
} from '../run/cost-estimate.js';
import { capPrices, estimateRun } from '../run/estimate-run.js';
import type { RunMeta } from '../run/meta.js';
import { planCases, suitesInPlan } from '../run/plan.js';
import { type PlanOptions } from '../stored/journal/records.js';
import type { CatalogReader } from '../service/check-models.js';
import type { Config, ServiceConfig } from '../config/types.js';
import { adapterOf } from '../adapters/index.js';
import type { Suite } from '../suite/types.js';
import type { Prices } from '../core/catalog.js';
import { readBaseline } from '../stored/baseline/store.js';

/** `--max-cost USD`: a positive amount of dollars (`0.5`, `$0.5`), or a usage error. */
export function parseMaxCost(text: string): number {
  // Plain decimals only: Number() would also take `0x10`, `1e3` and `Infinity`.
  const plain = /^\$?(?:\d+(?:\.\d*)?|\.\d+)$/.exec(text.trim());
  const usd = plain ? Number(plain[0].replace('$', '')) : NaN;
  if (!Number.isFinite(usd) || usd <= 0)
    throw new UsageError(
      `--max-cost expects an amount of US dollars above 0 (for example 0.50), got '${text}'`,
    );
  return usd;
}

/**
 * The cap a run holds: `--max-cost` given now, else the one the run started with (a resume,
 * from run.json), else `max_cost` in the config; null for none.
 */
export function costCapFor(flag: string | undefined, meta: Partial<RunMeta>, config: Config): CostCap | null {
  if (flag !== undefined) return { usd: parseMaxCost(flag), source: '--max-cost' };
  if (meta.max_cost) return meta.max_cost;
  return config.max_cost !== undefined ? { usd: config.max_cost, source: 'max_cost' } : null;
}

/**
 * Prices from the model lists (`GET /models`) of the services these plans call, suites' and
 * judges', whose lists carry prices (their adapter's `catalog.prices`: the router's do, a
 * direct service's do not). Read only for a run
 * with a cap; a list that cannot be read gives none.
 */
export async function listPrices(
  suites: Suite[],
  plans: readonly PlanOptions[],
  config: Config,
  readCatalogs: CatalogReader,
): Promise<Prices> {
  const names = new Set<string>();
  for (const plan of plans) {
    for (const suite of await suitesInPlan(suites, plan)) {
      const service = plan.service ?? suite.service;
      names.add(service);
      for (const judge of judgeTargets({ ...suite, service })) names.add(judge.service);
    }
  }
  const priced = [...names]
    .map((name) => config.services[name])
    .filter((s): s is ServiceConfig => s !== undefined && adapterOf(s).catalog.prices);
  if (priced.length === 0) return {};
  return pricesFromCatalogs((await readCatalogs(priced)).values());
}

/**
 * `--models`, `--providers`: the cap holds over the whole command, so every candidate's run
 * is estimated before the first is sent, and refused together (exit 2) when they exceed it.
 */
export async function checkCandidatesEstimate(options: {
  cap: CostCap;
  suites: Suite[];
  plans: readonly PlanOptions[];
  config: Config;
  baselineDir: string;
  listPrices: Prices;
}): Promise<CostEstimate> {
  const estimate = await estimateRun({
    cases: options.plans.flatMap((plan) => planCases(options.suites, plan)),
    config: options.config,
    baseline: (suite) => readBaseline(options.baselineDir, suite),
    prices: capPrices(options.config, options.listPrices),
  });
  const over = overCapMessage(estimate, options.cap, {
    what: `the ${options.plans.length} candidates' runs`,
  });
  if (over) throw new UsageError(over);
  return estimate;
}

/** The run header's cost line: the estimate, what was spent before (a resume), and the cap. */
export function costLine(cost: { cap: CostCap; estimate: CostEstimate; spent: number }): string {
  const spent = cost.spent > 0 ? `spent ${formatUsd(cost.spent)} so far; what is left: ` : '';
  return `driftcheck: ${spent}${describeEstimate(cost.estimate)} · ${capLabel(cost.cap)}\n`;
}
