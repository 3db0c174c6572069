import { createReadStream } from 'node:fs';
import { open, realpath, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, sep } from 'node:path';

/** What the server answers a file with, by its extension; anything else is bytes to download. */
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.jsonl': 'application/x-ndjson; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The policy of a file that declares none (anything but driftcheck's own pages): nothing
 * loads, nothing runs, and an HTML file is shown sandboxed, as an opaque origin.
 */
const NO_SCRIPT_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox";

/** Bytes of an HTML file read for its `<meta http-equiv="Content-Security-Policy">`: driftcheck writes it in the head. */
const HEAD_BYTES = 16 * 1024;

interface ReportServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves a reports folder on loopback (127.0.0.1), read-only: GET and HEAD of files inside
 * it, and `/` as the index page made fresh at each request. Nothing outside the folder is
 * reachable — a `..`, an encoded slash, a hidden name (a lock, a spill) or a link leading
 * out is refused — and a request naming another host (DNS rebinding) is refused too. Each
 * page is served with its own Content-Security-Policy as a header (report.html's, the
 * index's), with `frame-ancestors 'none'`; any other file with one that runs nothing.
 */
export async function serveReports(options: {
  root: string;
  port: number;
  index: () => Promise<string>;
}): Promise<ReportServer> {
  const root = await realpath(options.root);
  let port = options.port;
  const server = createServer((req, res) => {
    answer(req, res).catch(() => {
      if (!res.headersSent) send(res, 500, 'internal error\n');
      else res.destroy();
    });
  });
  const answer = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return send(res, 405, 'read-only: GET and HEAD only\n');
    }
    const host = (req.headers.host ?? '').toLowerCase();
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`)
      return send(res, 421, 'this server answers only for 127.0.0.1 and localhost\n');
    const segments = pathSegments(req.url ?? '/');
    if (segments === null) return send(res, 400, 'not a path inside the reports folder\n');
    if (segments.length === 0 || (segments.length === 1 && segments[0] === 'index.html')) {
      const html = await options.index();
      return sendText(res, req, html, TYPES['.html']!, declaredCsp(html) ?? NO_SCRIPT_CSP);
    }
    const file = await inside(root, join(root, ...segments));
    if (!file) return send(res, 404, 'not found\n');
    const info = await stat(file);
    if (!info.isFile()) return send(res, 404, 'not found\n');
    const ext = extname(file).toLowerCase();
    const csp = ext === '.html' ? (declaredCsp(await headOf(file)) ?? NO_SCRIPT_CSP) : NO_SCRIPT_CSP;
    headers(res, TYPES[ext] ?? 'application/octet-stream', csp);
    res.setHeader('Content-Length', info.size);
    res.writeHead(200);
    if (req.method === 'HEAD') return void res.end();
    createReadStream(file)
      .on('error', () => res.destroy())
      .pipe(res);
  };
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(options.port, '127.0.0.1', () => {
      server.off('error', fail);
      done();
    });
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}

/**
 * The path of a request as segments, each decoded once; null for one that could leave the
 * folder or name a hidden file: `..` or `.`, a slash or backslash encoded in a segment, a
 * NUL, a name starting with a dot, or text that does not decode.
 */
export function pathSegments(url: string): string[] | null {
  let pathname: string;
  try {
    pathname = new URL(url, 'http://127.0.0.1').pathname;
  } catch {
    return null;
  }
  const out: string[] = [];
  for (const raw of pathname.split('/')) {
    if (raw === '') continue;
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return null;
    }
    if (segment.startsWith('.') || /[/\\\0]/.test(segment)) return null;
    out.push(segment);
  }
  return out;
}

/** The file's real path when it lies inside the folder (links followed), else null. */
async function inside(root: string, path: string): Promise<string | null> {
  const real = await realpath(path).catch(() => null);
  return real !== null && real.startsWith(root + sep) ? real : null;
}

/** The Content-Security-Policy a page declares in its `<meta http-equiv>`, made a header (with frame-ancestors, which a meta cannot say). */
function declaredCsp(html: string): string | null {
  const m = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/i.exec(html);
  if (!m) return null;
  const csp = m[1]!
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
  return `${csp}; frame-ancestors 'none'`;
}

async function headOf(file: string): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read({ buffer: Buffer.alloc(HEAD_BYTES), position: 0 });
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

function headers(res: ServerResponse, type: string, csp: string): void {
  res.setHeader('Content-Type', type);
  res.setHeader('Content-Security-Policy', csp);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
  res.setHeader('Cache-Control', 'no-store');
}

function sendText(res: ServerResponse, req: IncomingMessage, text: string, type: string, csp: string): void {
  headers(res, type, csp);
  const body = Buffer.from(text, 'utf8');
  res.setHeader('Content-Length', body.length);
  res.writeHead(200);
  res.end(req.method === 'HEAD' ? undefined : body);
}

function send(res: ServerResponse, status: number, text: string): void {
  headers(res, 'text/plain; charset=utf-8', NO_SCRIPT_CSP);
  res.writeHead(status);
  res.end(text);
}
