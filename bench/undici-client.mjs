// The transport limit: the same requests driftcheck sends, through a bare undici Pool at
// the same concurrency, each body read fully and JSON.parse'd. Nothing else.
// With --stream (the requests ask for `stream: true`), each answer is read as server-sent
// events to its end, as any streaming client must: bytes decoded as UTF-8 across reads,
// events framed on the blank line that ends each (`\n\n`, what the simulator sends), each
// `data:` line's JSON parsed and its content delta appended, until `data: [DONE]`. Comments
// (keep-alives) are skipped. No SSE library and no other field read: the least a client does.
// Usage: node bench/undici-client.mjs --url BASE/chat/completions --requests FILE --concurrency C
// [--stream] (key in BENCH_ROUTER_KEY). Prints one JSON line: {sent, ok, failed, statuses}.
import { readFileSync } from 'node:fs';
import process from 'node:process';
import { URL } from 'node:url';
import { parseArgs, TextDecoder } from 'node:util';
import { Pool } from 'undici';

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    requests: { type: 'string' },
    concurrency: { type: 'string' },
    stream: { type: 'boolean', default: false },
  },
});
const url = new URL(values.url);
const concurrency = Number(values.concurrency ?? 16);
const streamed = values.stream;
const requests = readFileSync(values.requests, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line));
const pool = new Pool(url.origin, { connections: concurrency });
const authorization = `Bearer ${process.env.BENCH_ROUTER_KEY}`;
// The accept header driftcheck sends with a streamed request.
const accept = streamed ? 'text/event-stream, application/json' : 'application/json';
const statuses = {};
let ok = 0;
let next = 0;

/**
 * Reads one event stream to its end: the content it assembled, and whether `[DONE]` came.
 * Stream events, not `for await`: an async iterator per answer costs more (see exchange.ts).
 */
function readEvents(body) {
  return new Promise((resolve, reject) => {
    const decoder = new TextDecoder('utf-8');
    let pending = '';
    let content = '';
    let done = false;
    body.on('data', (piece) => {
      pending += decoder.decode(piece, { stream: true });
      let end;
      while ((end = pending.indexOf('\n\n')) !== -1) {
        const event = pending.slice(0, end);
        pending = pending.slice(end + 2);
        for (const line of event.split('\n')) {
          if (!line.startsWith('data:')) continue;
          const data = line.slice(line[5] === ' ' ? 6 : 5);
          if (data === '[DONE]') done = true;
          else content += JSON.parse(data).choices?.[0]?.delta?.content ?? '';
        }
      }
    });
    body.on('end', () => resolve({ content, done }));
    body.on('error', reject);
  });
}

async function worker() {
  while (next < requests.length) {
    const { key, body } = requests[next++];
    const res = await pool.request({
      path: url.pathname,
      method: 'POST',
      // The headers driftcheck sends to a loopback service, case key included.
      headers: {
        authorization,
        'content-type': 'application/json',
        accept,
        'x-driftcheck-case': key,
      },
      body,
    });
    statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
    if (streamed) {
      const { content, done } = await readEvents(res.body);
      if (res.statusCode === 200 && done && content !== '') ok++;
      continue;
    }
    const parsed = JSON.parse(await res.body.text());
    if (res.statusCode === 200 && typeof parsed.choices?.[0]?.message?.content === 'string') ok++;
  }
}

await Promise.all(Array.from({ length: concurrency }, worker));
await pool.close();
process.stdout.write(
  `${JSON.stringify({ sent: requests.length, ok, failed: requests.length - ok, statuses })}\n`,
);
