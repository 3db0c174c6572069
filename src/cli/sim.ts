import { parseArgs } from 'node:util';
import { type SimulatorOptions, startSimulator } from '../sim/server.js';
import type { CliIO } from './io.js';
import { wholeNumber } from './plan-flags.js';
import { listenError, portOf } from './port.js';

/** `driftcheck sim`: the embedded simulator of both services, on loopback, until interrupted. */
export async function simCommand(args: string[], io: CliIO): Promise<number> {
  const options = simOptions(args);
  const sim = await startSimulator(options).catch((error: unknown) => {
    throw listenError(options.port, error);
  });
  io.stdout(
    [
      `driftcheck simulator listening on ${sim.url}`,
      `  router (Service A): ${sim.routerBaseUrl}   key: any 'sk-or-…' value of 20+ characters`,
      `  direct (Service B): ${sim.directBaseUrl}       key: any other 'sk-…' value of 20+ characters`,
      `  models: GET ${sim.routerBaseUrl}/models · stats: GET ${sim.url}/__sim/stats`,
      '  faults: header x-driftcheck-sim: {"fault":"rate_limited"} or a prompt marker [sim:fault=empty_choices]',
      '',
    ].join('\n'),
  );
  await new Promise<void>((done) => {
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
  await sim.close();
  return 0;
}

/** `driftcheck sim`'s flags as the simulator's options (a usage error names the flag). */
export function simOptions(args: string[]): SimulatorOptions & { port: number } {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string' },
      'latency-ms': { type: 'string' },
      'credit-after': { type: 'string' },
      'budget-after': { type: 'string' },
      'alias-move-after': { type: 'string' },
      'echo-key': { type: 'boolean' },
      seed: { type: 'string' },
    },
    strict: true,
  });
  return {
    port: portOf(values.port),
    latencyMs: wholeNumber('--latency-ms', values['latency-ms']) ?? 0,
    creditAfter: wholeNumber('--credit-after', values['credit-after']),
    budgetAfter: wholeNumber('--budget-after', values['budget-after']),
    aliasMoveAfter: wholeNumber('--alias-move-after', values['alias-move-after']),
    echoKey: Boolean(values['echo-key']),
    ...(values.seed !== undefined ? { seed: wholeNumber('--seed', values.seed)! } : {}),
  };
}
