import { generateSimKey, type Simulator, startSimulator } from '../sim/server.js';
import type { Config, ServiceConfig } from '../config/types.js';
import { adapterOf, type SimFlavour } from '../adapters/index.js';
import { wholeNumber } from './plan-flags.js';
import { UsageError } from '../util/errors.js';

export interface SimulatedServices {
  config: Config;
  env: NodeJS.ProcessEnv;
  simulator: Simulator;
}

/** The variable holding the fresh key of each simulator flavour. */
const SIM_KEY_ENV: Record<SimFlavour, string> = {
  router: 'DRIFTCHECK_SIM_ROUTER_KEY',
  direct: 'DRIFTCHECK_SIM_DIRECT_KEY',
};

/** As a directive's delay_ms: longer than any service time-out, shorter than a timer can wait. */
const MAX_SIM_LATENCY_MS = 600_000;

/**
 * `--sim`: starts the embedded simulator and points every configured service at it, with
 * fresh keys of the right platform shape. Nothing leaves the machine; no user key is read.
 */
export async function simulateServices(config: Config, env: NodeJS.ProcessEnv): Promise<SimulatedServices> {
  const keys = { router: generateSimKey('router'), direct: generateSimKey('direct') };
  // DRIFTCHECK_SIM_SEED fixes the simulator's coins (pass_rate) for reproducible runs.
  const seed = env.DRIFTCHECK_SIM_SEED ? Number(env.DRIFTCHECK_SIM_SEED) : undefined;
  // DRIFTCHECK_SIM_LATENCY_MS delays every answer (`sim --latency-ms`): a slow night, on purpose.
  const latencyMs = wholeNumber('DRIFTCHECK_SIM_LATENCY_MS', env.DRIFTCHECK_SIM_LATENCY_MS || undefined);
  if (latencyMs !== null && latencyMs > MAX_SIM_LATENCY_MS)
    throw new UsageError(
      `DRIFTCHECK_SIM_LATENCY_MS is at most ${MAX_SIM_LATENCY_MS} (10 minutes), got ${latencyMs}`,
    );
  const simulator = await startSimulator({
    routerKeys: [keys.router],
    directKeys: [keys.direct],
    ...(latencyMs !== null ? { latencyMs } : {}),
    ...(Number.isInteger(seed) ? { seed: seed as number } : {}),
  });
  const services: Record<string, ServiceConfig> = {};
  // Each service goes to the simulator's service its kind's adapter names.
  for (const [name, service] of Object.entries(config.services)) {
    const flavour = adapterOf(service).simulator;
    services[name] = { ...service, base_url: simulator.baseUrls[flavour], api_key_env: SIM_KEY_ENV[flavour] };
  }
  return {
    config: { ...config, services },
    env: { ...env, [SIM_KEY_ENV.router]: keys.router, [SIM_KEY_ENV.direct]: keys.direct },
    simulator,
  };
}
