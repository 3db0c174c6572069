import { parseArgs } from 'node:util';
import { UsageError } from '../errors.js';
import { startSimulator } from '../sim/server.js';
import type { CliIO } from './io.js';
import { wholeNumber } from './plan-flags.js';

/** `driftcheck sim`: the embedded simulator of both services, on loopback, until interrupted. */
export async function simCommand(args: string[], io: CliIO): Promise<number> {
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
  const port = portOf(values.port);
  const sim = await startSimulator({
    port,
    latencyMs: wholeNumber('--latency-ms', values['latency-ms']) ?? 0,
    creditAfter: wholeNumber('--credit-after', values['credit-after']),
    budgetAfter: wholeNumber('--budget-after', values['budget-after']),
    aliasMoveAfter: wholeNumber('--alias-move-after', values['alias-move-after']),
    echoKey: Boolean(values['echo-key']),
    ...(values.seed !== undefined ? { seed: wholeNumber('--seed', values.seed)! } : {}),
  }).catch((error: unknown) => {
    throw listenError(port, error);
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

/** `--port N`: a TCP port, 1–65535, or 0 (the default) for any free one. */
function portOf(text: string | undefined): number {
  const port = wholeNumber('--port', text) ?? 0;
  if (port > 65535)
    throw new UsageError(`--port expects a TCP port from 1 to 65535 (0: any free port), got '${text}'`);
  return port;
}

/** A port the system will not give is the user's to change (exit 2), not a bug; anything else is rethrown. */
function listenError(port: number, error: unknown): unknown {
  const why: Record<string, string> = {
    EADDRINUSE: 'is already in use by another program',
    EACCES: 'needs privileges this user does not have',
    EADDRNOTAVAIL: 'is not available on this machine',
  };
  const reason = why[(error as { code?: string } | null)?.code ?? ''];
  if (!reason) return error;
  return new UsageError(
    `--port ${port}: the port ${reason}\n  → pick another port, or --port 0 for any free one`,
    {
      cause: error,
    },
  );
}
