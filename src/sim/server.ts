import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CompletionHeaders, type Handled, handleCompletion, type SimConfig } from './completion.js';
import { headerValue, readBody, sendReply, TimerSet, TOO_LARGE } from './http-io.js';
import { SIM_CASE_HEADER, SIM_DIRECTIVE_HEADER } from './protocol.js';
import { completionEndpoint, routeOther } from './routes.js';
import { SimState, type SimStats } from './state.js';
import type { SimFlavour } from '../adapters/index.js';

export { generateSimKey } from './keys.js';

export interface SimulatorOptions {
  /** Default 0 (ephemeral). */
  port?: number;
  /** Seed of the coins behind `pass_rate` (default: random, so two runs sample independently). */
  seed?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Fixed extra latency on every completion (default 0). */
  latencyMs?: number;
  /** Accepted router keys; default: any well-shaped router key (starts `sk-or-`, ≥ 20 chars). */
  routerKeys?: string[];
  /** Accepted direct keys; default: any well-shaped direct key (starts `sk-` but not `sk-or-`, ≥ 20 chars). */
  directKeys?: string[];
  /** Router: after N successful completions per key, every call → 402 insufficient credits. */
  creditAfter?: number | null;
  /** Direct: after N successful completions per key, every call → project budget exceeded. */
  budgetAfter?: number | null;
  /** After N alias resolutions, `~…-latest` aliases move to the next newer concrete model. */
  aliasMoveAfter?: number | null;
  /** Auth errors echo the full presented key (real services mask it); tests redaction downstream. */
  echoKey?: boolean;
}

export interface Simulator {
  /** `http://127.0.0.1:PORT` */
  url: string;
  /** `${url}/api/v1` */
  routerBaseUrl: string;
  /** `${url}/v1` */
  directBaseUrl: string;
  /** The base URL of each flavour: where a service of a kind whose adapter names it is pointed under `--sim`. */
  baseUrls: Record<SimFlavour, string>;
  stats(): SimStats;
  /** Closes the server and every socket (hung `timeout` requests included) promptly. */
  close(): Promise<void>;
}

/** Starts the embedded simulator of both services on loopback (demos, tests, benchmarks, run --sim). */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const config: SimConfig = {
    latencyMs: Math.max(0, options.latencyMs ?? 0),
    routerKeys: options.routerKeys ? new Set(options.routerKeys) : null,
    directKeys: options.directKeys ? new Set(options.directKeys) : null,
    creditAfter: options.creditAfter ?? null,
    budgetAfter: options.budgetAfter ?? null,
    aliasMoveAfter: options.aliasMoveAfter ?? null,
    echoKey: options.echoKey ?? false,
  };
  const state = new SimState(options.seed ?? Math.floor(Math.random() * 2 ** 31));
  const timers = new TimerSet();
  let closing = false;
  // Only completion replies are counted: stats describe what the clients under test experienced.
  const count = (status: string) => state.countReply(status);

  const deliver = (req: IncomingMessage, res: ServerResponse, handled: Handled) => {
    if (handled.delayMs > 0 && handled.reply.action !== 'hang') {
      timers.after(handled.delayMs, () => sendReply(req, res, handled.reply, timers, count));
    } else sendReply(req, res, handled.reply, timers, count);
  };

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0]!;
    const kind = completionEndpoint(path);
    if (kind === null || req.method !== 'POST') {
      sendReply(
        req,
        res,
        routeOther(req.method ?? 'GET', path, req.headers.authorization, config, state),
        timers,
      );
      return;
    }
    res.once('finish', () => state.replyFinished());
    readBody(req, (raw) => {
      if (closing) return;
      if (raw === null) {
        sendReply(req, res, TOO_LARGE, timers, count);
        return;
      }
      const headers: CompletionHeaders = {
        authorization: req.headers.authorization,
        directive: headerValue(req.headers[SIM_DIRECTIVE_HEADER]),
        caseId: headerValue(req.headers[SIM_CASE_HEADER]),
      };
      deliver(req, res, handleCompletion(kind, config, state, headers, raw));
    });
  });
  server.on('clientError', (_err, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  const baseUrls = { router: `${url}/api/v1`, direct: `${url}/v1` };
  return {
    url,
    routerBaseUrl: baseUrls.router,
    directBaseUrl: baseUrls.direct,
    baseUrls,
    stats: () => state.stats(),
    close: () =>
      new Promise<void>((resolve) => {
        closing = true;
        timers.clearAll();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
