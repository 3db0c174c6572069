import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServiceConfig, ServiceKind } from '../../src/config/types.js';

/** One request the test server received. */
interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, received: Received) => void;

export interface TestServer {
  origin: string;
  /** `${origin}/v1`, what a config's base_url would hold. */
  baseUrl: string;
  received: Received[];
  /** Replace the handler between requests (e.g. fail once, then answer). */
  handle(handler: Handler): void;
  close(): Promise<void>;
}

/** A real loopback HTTP server the test controls; records every request with its body. */
export async function startServer(handler: Handler = (_q, res) => res.end()): Promise<TestServer> {
  let current = handler;
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(entry);
      current(req, res, entry);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    baseUrl: `${origin}/v1`,
    received,
    handle: (next) => {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Sends a JSON answer with a status and extra headers. */
export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** A minimal valid chat-completion body. */
export function okBody(content = 'Hello.', extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'gen-1',
    object: 'chat.completion',
    model: 'openai/gpt-4o-mini-2024-07-18',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
    ...extra,
  };
}

export function makeService(
  kind: ServiceKind,
  baseUrl: string,
  overrides: Partial<ServiceConfig> = {},
): ServiceConfig {
  return {
    name: kind,
    kind,
    base_url: baseUrl,
    api_key_env: kind === 'router' ? 'OPENROUTER_API_KEY' : 'DIRECT_API_KEY',
    headers: {},
    max_tokens: kind === 'router' ? 512 : 1024,
    timeout_s: 10,
    retries: 0,
    concurrency: 2,
    ...overrides,
  };
}

/** Key-shaped values built at run time (never committed as literals). */
export const routerKey = `sk-or-v1-${'0123456789abcdef'.repeat(4)}`;
export const directKey = `sk-${'A1b2C3d4'.repeat(6)}`;
