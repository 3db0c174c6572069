import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, readSamples, runDirFrom } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';
import { TOOL_ENV, toolConfig } from '../helpers/tool-server.js';

// Streamed requests through the command: `--stream` and `params.stream`, against a loopback
// service that streams each answer as its prompt says — whole, broken off, with an error
// event after some content, or stalling.

const event = (chunk: unknown) => `data: ${JSON.stringify(chunk)}\n\n`;
const delta = (d: Record<string, unknown>, finish: string | null = null) =>
  event({
    id: 'gen-s',
    model: 'openai/gpt-4o-mini',
    choices: [{ index: 0, delta: d, finish_reason: finish }],
  });
const usage = event({
  id: 'gen-s',
  choices: [],
  usage: { prompt_tokens: 8, completion_tokens: 5, total_tokens: 13 },
});

const STREAMS: Record<string, (string | number | 'cut')[]> = {
  whole: [
    ': OPENROUTER PROCESSING\n\n',
    delta({ role: 'assistant', content: 'The window ' }),
    delta({ content: 'is 30 days.' }, 'stop'),
    usage,
    'data: [DONE]\n\n',
  ],
  cut: [delta({ role: 'assistant', content: 'The window is' }), 20, 'cut'],
  error: [
    delta({ role: 'assistant', content: 'The window' }),
    event({
      id: 'gen-s',
      error: { code: 502, message: 'Upstream provider disconnected' },
      choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }],
    }),
    'data: [DONE]\n\n',
  ],
  stall: [
    delta({ role: 'assistant', content: 'The window' }),
    1_500,
    delta({ content: ' is 30 days.' }, 'stop'),
    'data: [DONE]\n\n',
  ],
};

const bodies: Record<string, unknown>[] = [];
let url = '';
let close: () => Promise<void>;
beforeAll(async () => {
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (d: Buffer) => (text += d));
    req.on('end', () => {
      const body = JSON.parse(text) as { messages: { content: string }[]; stream?: boolean };
      bodies.push(body);
      const prompt = body.messages.at(-1)!.content;
      if (!body.stream) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(
          JSON.stringify({
            id: 'gen-p',
            model: 'openai/gpt-4o-mini',
            choices: [
              {
                index: 0,
                message: { role: 'assistant', content: 'The window is 30 days.' },
                finish_reason: 'stop',
              },
            ],
            usage: { prompt_tokens: 8, completion_tokens: 5, total_tokens: 13 },
          }),
        );
      }
      void play(res, STREAMS[prompt] ?? STREAMS.whole!);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () =>
    new Promise((done) => {
      server.closeAllConnections();
      server.close(() => done());
    });
});
afterAll(() => close());

async function play(res: ServerResponse, steps: (string | number | 'cut')[]) {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const step of steps) {
    if (step === 'cut') return void res.destroy();
    if (typeof step === 'number') await new Promise((done) => setTimeout(done, step));
    else res.write(step);
  }
  res.end();
}

const suite = (params: string) => `suite: streamed
service: router
model: openai/gpt-4o-mini
${params}
cases:
  - id: whole
    prompt: whole
    expect: [{ contains: 30 days }]
  - id: cut
    prompt: cut
  - id: error
    prompt: error
  - id: stall
    prompt: stall
`;

describe('streamed requests through `driftcheck run`', () => {
  it('reads each stream, naming how each went wrong; the partial answers are kept', async () => {
    const project = await makeProject({
      'driftcheck.config.yaml': toolConfig(url).replace('retries: 0 }', 'retries: 2, idle_timeout_s: 0.3 }'),
      'suites/streamed.yaml': suite('params: { stream: true }'),
    });
    try {
      const run = await runMain(['run', 'suites'], { cwd: project.dir, env: TOOL_ENV });
      expect(run.code).toBe(1);
      const console_ = run.stdout.replace(/\n\s+/g, ' ');
      expect(console_).toMatch(
        /stream_interrupted.* \(HTTP 200\): the stream broke off after 1 chunk, 13 characters, without a finish_reason or \[DONE\]/,
      );
      expect(console_).toMatch(/body_error \(HTTP 200\): .*Upstream provider disconnected/);
      expect(console_).toMatch(
        /timeout \(HTTP 200\): stalled after 1 chunk, 10 characters: nothing more for 0\.3 s/,
      );
      const samples = new Map((await readSamples(runDirFrom(run, project.dir))).map((s) => [s.case, s]));
      expect(samples.get('whole')).toMatchObject({
        status: 'pass',
        content: 'The window is 30 days.',
        usage: { total_tokens: 13 },
      });
      expect(samples.get('cut')).toMatchObject({
        status: 'error',
        content: 'The window is',
        usage: null,
        attempts: 1,
      });
      expect(samples.get('error')).toMatchObject({
        status: 'error',
        content: 'The window',
        error: { kind: 'body_error', code: '502' },
      });
      expect(samples.get('stall')!.error!.kind).toBe('timeout');
      // Content had come before each fault: none was sent again.
      expect(
        bodies.filter((b) => (b.messages as { content: string }[]).at(-1)!.content === 'cut'),
      ).toHaveLength(1);
    } finally {
      await project.cleanup();
    }
  });

  it('--stream asks for every answer as a stream, and run.json keeps it for a resume', async () => {
    const project = await makeProject({
      'driftcheck.config.yaml': toolConfig(url),
      'suites/streamed.yaml': suite('').replace(/ {2}- id: cut[\s\S]*$/, ''),
    });
    try {
      bodies.length = 0;
      const plain = await runMain(['run', 'suites'], { cwd: project.dir, env: TOOL_ENV });
      expect(plain.code, plain.stderr).toBe(0);
      expect(bodies.map((b) => b.stream)).toEqual([undefined]);
      const streamed = await runMain(['run', 'suites', '--stream'], { cwd: project.dir, env: TOOL_ENV });
      expect(streamed.code, streamed.stderr).toBe(0);
      expect(bodies.map((b) => b.stream)).toEqual([undefined, true]);
      const meta = JSON.parse(
        await readFile(join(runDirFrom(streamed, project.dir), 'run.json'), 'utf8'),
      ) as {
        plan: Record<string, unknown>;
      };
      expect(meta.plan.stream).toBe(true);
    } finally {
      await project.cleanup();
    }
  });
});
