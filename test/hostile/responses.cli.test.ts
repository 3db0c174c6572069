import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorKind } from '../../src/core/answer.js';
import { makeProject, readReport, readTree, runDirFrom } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';
import {
  completion,
  type LoopbackService,
  sendHuge,
  sendJson,
  startLoopbackService,
  streamForever,
} from './loopback.js';

// Generated per run, in the shapes of the two platforms; never in a file driftcheck reads.
const hex = (n: number) =>
  Array.from({ length: n }, () => Math.floor(Math.random() * 16).toString(16)).join('');
const ROUTER_KEY = `sk-or-v1-${hex(48)}`;
const DIRECT_KEY = `sk-${hex(48)}`;
const ENV = { OPENROUTER_API_KEY: ROUTER_KEY, DIRECT_API_KEY: DIRECT_KEY };

/** A second loopback server a redirect points at: the key must never reach it. */
let elsewhere: LoopbackService;

interface Scenario {
  name: string;
  /** What the hostile case's request gets back. */
  respond: (res: ServerResponse, key: string) => void;
  kind: ErrorKind;
  message?: RegExp;
}

const HTML_502 =
  '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>';

const SCENARIOS: Scenario[] = [
  {
    name: 'an HTML 502 page from a proxy',
    respond: (res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end(HTML_502);
    },
    kind: 'server_error',
    message: /HTTP 502 with a non-JSON body \(text\/html\)/,
  },
  {
    name: 'an HTML page with status 200 (a captive portal)',
    respond: (res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body>Please log in to the Wi-Fi</body></html>');
    },
    kind: 'bad_response',
    message: /not JSON \(text\/html\)/,
  },
  {
    name: 'truncated JSON',
    respond: (res) => sendJson(res, 200, completion('cut short').slice(0, 60)),
    kind: 'bad_response',
  },
  {
    name: 'an empty 200 body',
    respond: (res) => sendJson(res, 200, ''),
    kind: 'bad_response',
    message: /empty body/,
  },
  {
    name: 'choices: null',
    respond: (res) => sendJson(res, 200, JSON.stringify({ id: 'x', model: 'm', choices: null })),
    kind: 'bad_response',
    message: /no choices array/,
  },
  {
    name: 'a choice without message',
    respond: (res) =>
      sendJson(res, 200, JSON.stringify({ model: 'm', choices: [{ index: 0, finish_reason: 'stop' }] })),
    kind: 'bad_response',
    message: /no message/,
  },
  {
    name: 'content: 42',
    respond: (res) =>
      sendJson(res, 200, JSON.stringify({ model: 'm', choices: [{ message: { content: 42 } }] })),
    kind: 'bad_response',
    message: /content/,
  },
  {
    name: 'content: null without tool calls',
    respond: (res) =>
      sendJson(
        res,
        200,
        JSON.stringify({ model: 'm', choices: [{ message: { content: null }, finish_reason: 'stop' }] }),
      ),
    kind: 'empty_content',
  },
  {
    name: 'a 50 MiB body with Content-Length',
    respond: (res) => sendHuge(res, 50 * 1024 * 1024, true),
    kind: 'bad_response',
    message: /byte cap/,
  },
  {
    name: 'a 50 MiB chunked body',
    respond: (res) => sendHuge(res, 50 * 1024 * 1024, false),
    kind: 'bad_response',
    message: /byte cap/,
  },
  {
    name: 'a 200 whose body never ends',
    respond: (res) => streamForever(res),
    kind: 'timeout',
  },
  {
    name: 'a request that is never answered',
    respond: () => {},
    kind: 'timeout',
  },
  {
    name: 'a connection dropped mid-body',
    respond: (res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"choices":[');
      setTimeout(() => res.socket?.destroy(), 20);
    },
    kind: 'network',
  },
  {
    name: 'a 301 redirect to another loopback port',
    respond: (res) => {
      res.writeHead(301, { location: `${elsewhere.url}/api/v1/chat/completions?token=abc` });
      res.end();
    },
    kind: 'bad_response',
    message: /redirect/,
  },
  {
    name: 'an error inside a 200 that echoes the key',
    respond: (res, key) =>
      sendJson(
        res,
        200,
        JSON.stringify({
          error: { code: 502, message: `Upstream refused the request made with ${key}` },
        }),
      ),
    kind: 'body_error',
    message: /\[REDACTED\]/,
  },
];

function suiteText(kind: 'router' | 'direct'): string {
  const model = kind === 'router' ? 'openai/gpt-4o-mini' : 'kimi-k2-0905-preview';
  return `suite: hostile-${kind}
service: ${kind}
model: ${model}
cases:
  - id: hostile
    prompt: hostile
    expect: [{ non_empty: true }]
  - id: control
    prompt: control
    expect: [{ equals: fine }]
`;
}

beforeAll(async () => {
  elsewhere = await startLoopbackService((_req, res) => sendJson(res, 200, completion('stolen')));
});
afterAll(async () => {
  await elsewhere.close();
});

describe('hostile responses become classified case errors; the run goes on', () => {
  it.each(SCENARIOS)('$name → $kind', async (scenario) => {
    const service = await startLoopbackService((req, res) => {
      if (req.prompt === 'control') return sendJson(res, 200, completion('fine'));
      scenario.respond(res, req.path.startsWith('/api/') ? ROUTER_KEY : DIRECT_KEY);
    });
    const project = await makeProject({
      // Short time-out: the endless and silent answers are cut after one second.
      'driftcheck.config.yaml': `services:
  router: { kind: router, base_url: ${service.url}/api/v1, api_key_env: OPENROUTER_API_KEY, timeout_s: 1, retries: 0 }
  direct: { kind: direct, base_url: ${service.url}/v1, api_key_env: DIRECT_API_KEY, timeout_s: 1, retries: 0 }
`,
      'suites/router.yaml': suiteText('router'),
      'suites/direct.yaml': suiteText('direct'),
    });
    try {
      const run = await runMain(['run'], { cwd: project.dir, env: ENV });
      expect(run.code, run.stderr).toBe(1);
      const report = await readReport(runDirFrom(run, project.dir));
      for (const kind of ['router', 'direct']) {
        const hostile = report.cases.find((c) => c.suite === `hostile-${kind}` && c.case === 'hostile');
        const control = report.cases.find((c) => c.suite === `hostile-${kind}` && c.case === 'control');
        expect(hostile?.status, kind).toBe('error');
        expect(hostile?.error?.kind, `${kind}: ${hostile?.error?.message}`).toBe(scenario.kind);
        if (scenario.message) expect(hostile?.error?.message).toMatch(scenario.message);
        expect(control?.status, `${kind} control`).toBe('pass');
      }
      expect(report.summary).toMatchObject({ cases: 4, passed: 2, errored: 2 });

      // Each key went to its own service only, and nowhere else.
      for (const seen of service.seen) {
        const key = seen.path.startsWith('/api/v1/') ? ROUTER_KEY : DIRECT_KEY;
        expect(seen.authorization).toBe(`Bearer ${key}`);
      }
      expect(elsewhere.seen).toHaveLength(0);

      // No key in anything driftcheck wrote or printed, even when the service echoed it.
      const written = [...(await readTree(join(project.dir, 'reports'))).values()];
      const outputs = [run.stdout, run.stderr, ...written].join('\n');
      expect(outputs).not.toContain(ROUTER_KEY);
      expect(outputs).not.toContain(DIRECT_KEY);
      expect(outputs).not.toContain('token=abc');

      // The endless writer stops once the client hangs up (poll: closing is asynchronous).
      for (let i = 0; i < 100 && service.writersAlive() > 0; i++) await delay(20);
      expect(service.writersAlive()).toBe(0);
    } finally {
      await service.close();
      await project.cleanup();
    }
  });
});

describe('time-outs Node timers cannot take as they are', () => {
  it.each([
    // 1.5 ms: AbortSignal.timeout threw on the fraction and the run died (exit 70).
    ['0.0015', 'a time-out', 1, 'error'],
    // 1e15 ms: past 2^31 - 1 ms a timer fires after 1 ms, so every request would time out.
    ['1e12', 'an answer', 0, 'pass'],
  ])('timeout_s: %s gives %s, not an internal error', async (timeout, _what, code, status) => {
    const service = await startLoopbackService((_req, res) => {
      setTimeout(() => sendJson(res, 200, completion('fine')), 50);
    });
    const project = await makeProject({
      'driftcheck.config.yaml': `services:
  router: { kind: router, base_url: ${service.url}/api/v1, api_key_env: OPENROUTER_API_KEY, timeout_s: ${timeout}, retries: 0 }
`,
      'suites/router.yaml': suiteText('router'),
    });
    try {
      const run = await runMain(['run'], { cwd: project.dir, env: ENV });
      expect(run.stderr).not.toMatch(/internal error/);
      expect(run.code, run.stderr).toBe(code);
      const report = await readReport(runDirFrom(run, project.dir));
      const hostile = report.cases.find((c) => c.case === 'hostile');
      expect(hostile?.status).toBe(status);
      if (status === 'error') expect(hostile?.error?.kind).toBe('timeout');
    } finally {
      await service.close();
      await project.cleanup();
    }
  });
});
