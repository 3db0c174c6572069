import { afterAll, beforeAll } from 'vitest';
import { request } from 'undici';
import { generateSimKey, type Simulator, startSimulator } from '../../src/sim/server.js';
import type { SimFlavour } from '../../src/adapters/index.js';

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests poke into loosely shaped JSON bodies
  json: any;
}

/** One HTTP call against the simulator; `json` is undefined when the body does not parse. */
export async function call(
  url: string,
  options: {
    method?: 'GET' | 'POST';
    key?: string | null;
    body?: unknown;
    headers?: Record<string, string>;
  } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await request(url, {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers,
    body:
      options.body === undefined
        ? undefined
        : typeof options.body === 'string'
          ? options.body
          : JSON.stringify(options.body),
  });
  const text = await res.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, text, json };
}

export const MODEL: Record<SimFlavour, string> = {
  router: 'openai/gpt-4o-mini',
  direct: 'kimi-k2-0905-preview',
};

export function baseUrl(sim: Simulator, kind: SimFlavour): string {
  return kind === 'router' ? sim.routerBaseUrl : sim.directBaseUrl;
}

/** POST a chat completion with one user message. */
export function complete(
  sim: Simulator,
  kind: SimFlavour,
  key: string | null,
  extra: {
    content?: string;
    model?: string;
    headers?: Record<string, string>;
    body?: Record<string, unknown>;
  } = {},
): Promise<Reply> {
  return call(`${baseUrl(sim, kind)}/chat/completions`, {
    key,
    headers: extra.headers,
    body: {
      model: extra.model ?? MODEL[kind],
      messages: [{ role: 'user', content: extra.content ?? 'What is 12 + 30?' }],
      ...extra.body,
    },
  });
}

/** One simulator for a test file, started before its tests and closed after; returns a key per platform. */
export function useSimulator(started: (sim: Simulator) => void): Record<SimFlavour, string> {
  let sim: Simulator | undefined;
  beforeAll(async () => {
    const running = await startSimulator();
    sim = running;
    started(running);
  });
  afterAll(() => sim?.close());
  return { router: generateSimKey('router'), direct: generateSimKey('direct') };
}

/** A function tool that takes one string property, required (`order_id` of lookup_order, `city` of get_weather). */
export function stringTool(name: string, description: string, property: string) {
  return {
    type: 'function',
    function: {
      name,
      description,
      parameters: { type: 'object', properties: { [property]: { type: 'string' } }, required: [property] },
    },
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests poke into loosely shaped JSON chunks
type Chunk = any;

/** A streamed answer's data chunks, parsed (comments and `data: [DONE]` left out). */
export function dataChunks(text: string): Chunk[] {
  return text
    .split('\n\n')
    .filter((e) => e.startsWith('data: {'))
    .map((e) => JSON.parse(e.slice('data: '.length)) as Chunk);
}
