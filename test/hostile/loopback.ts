import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a hand-made service saw of one request. */
interface SeenRequest {
  method: string;
  path: string;
  /** The request's `model` (empty for a request without one, e.g. `GET /models`). */
  model: string;
  /** The request's JSON body, null when it had none (or not JSON). */
  body: Record<string, unknown> | null;
  authorization: string | undefined;
  /** Every request header, names in lower case. */
  headers: IncomingMessage['headers'];
  /** The last message's content: which case sent it. */
  prompt: string;
}

export type Handler = (req: SeenRequest, res: ServerResponse) => void;

/** Endless responses still writing, across every loopback service of this process. */
const endless = new Set<ServerResponse>();

export interface LoopbackService {
  url: string;
  seen: SeenRequest[];
  /** Endless responses still writing in this process (must drop to 0 once the client gives up). */
  writersAlive: () => number;
  close: () => Promise<void>;
}

/**
 * A chat-completion look-alike on 127.0.0.1 whose answers a test writes by hand,
 * including the ones no honest service sends. Every request is recorded.
 */
export async function startLoopbackService(handler: Handler): Promise<LoopbackService> {
  const seen: SeenRequest[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (body += d));
    req.on('end', () => {
      let prompt = '';
      let model = '';
      let json: Record<string, unknown> | null = null;
      try {
        const parsed = JSON.parse(body) as { model?: string; messages?: { content?: string }[] };
        prompt = parsed.messages?.at(-1)?.content ?? '';
        model = parsed.model ?? '';
        json = parsed as Record<string, unknown>;
      } catch {
        // a non-JSON request is recorded with an empty prompt
      }
      const entry = {
        method: req.method ?? '',
        path: req.url ?? '',
        model,
        body: json,
        authorization: req.headers.authorization,
        headers: req.headers,
        prompt,
      };
      seen.push(entry);
      // A client that hangs up makes writes fail; that is expected here.
      res.on('error', () => {});
      handler(entry, res);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    writersAlive: () => endless.size,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** Writes bytes every few ms for as long as the client listens; stops when the socket closes. */
export function streamForever(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"choices":[{"message":{"content":"');
  endless.add(res);
  const timer = setInterval(() => res.write('la '.repeat(256)), 5);
  res.on('close', () => {
    clearInterval(timer);
    endless.delete(res);
  });
}

/** Sends `size` bytes of a JSON string body, in 1 MiB writes that respect back-pressure. */
export function sendHuge(res: ServerResponse, size: number, declareLength: boolean): void {
  const chunk = Buffer.alloc(1024 * 1024, 'a');
  res.writeHead(200, {
    'content-type': 'application/json',
    ...(declareLength ? { 'content-length': String(size) } : {}),
  });
  let sent = 0;
  const pump = (): void => {
    while (sent < size && !res.destroyed) {
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end();
  };
  pump();
}

/** A well-formed completion in the shape both services share. */
export function completion(content: string, model = 'openai/gpt-4o-mini'): string {
  return JSON.stringify({
    id: 'gen-1',
    object: 'chat.completion',
    model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
  });
}

export function sendJson(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(body);
}
