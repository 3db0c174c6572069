// The transport limit: the same requests driftcheck sends, through a bare undici Pool at
// the same concurrency, each body read fully and JSON.parse'd. Nothing else.
// Usage: node bench/undici-client.mjs --url BASE/chat/completions --requests FILE --concurrency C
// (key in BENCH_ROUTER_KEY). Prints one JSON line: {sent, ok, failed, statuses}.
import { readFileSync } from 'node:fs';
import process from 'node:process';
import { URL } from 'node:url';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';

const { values } = parseArgs({
  options: { url: { type: 'string' }, requests: { type: 'string' }, concurrency: { type: 'string' } },
});
const url = new URL(values.url);
const concurrency = Number(values.concurrency ?? 16);
const requests = readFileSync(values.requests, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line));
const pool = new Pool(url.origin, { connections: concurrency });
const authorization = `Bearer ${process.env.BENCH_ROUTER_KEY}`;
const statuses = {};
let ok = 0;
let next = 0;

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
        accept: 'application/json',
        'x-driftcheck-case': key,
      },
      body,
    });
    const parsed = JSON.parse(await res.body.text());
    statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
    if (res.statusCode === 200 && typeof parsed.choices?.[0]?.message?.content === 'string') ok++;
  }
}

await Promise.all(Array.from({ length: concurrency }, worker));
await pool.close();
process.stdout.write(
  `${JSON.stringify({ sent: requests.length, ok, failed: requests.length - ok, statuses })}\n`,
);
