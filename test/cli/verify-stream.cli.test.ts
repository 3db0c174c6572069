import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';
import { type LoopbackService, startLoopbackService } from '../hostile/loopback.js';

// `verify --stream`: the one-shot check sent as applications send it, streamed. Against the
// embedded simulator it reads each service's stream and says how it came; against a loopback
// service of the test's own, what was sent, and a stream that broke off is the verdict.

const STREAM_LINE = /stream: first token \d+ ms · last token \d+ ms · \d+ chunks/;

describe('verify --stream', () => {
  it('on the simulator: each service answers as a stream, read and described; without --stream, no stream line', async () => {
    const project = await makeProject({});
    try {
      const streamed = await runMain(['verify', '--sim', '--stream'], { cwd: project.dir });
      expect(streamed.code, streamed.stdout + streamed.stderr).toBe(0);
      const blocks = streamed.stdout.split(/\n(?=\S)/);
      expect(blocks.map((b) => b.split(' ')[0])).toEqual(['router', 'direct']);
      for (const block of blocks) {
        expect(block).toMatch(STREAM_LINE);
        expect(block).toMatch(/finish_reason: stop/);
        // Usage came in the stream: the router always, the direct service because it was asked.
        expect(block).toMatch(/usage: \d+ prompt \+ \d+ completion = \d+ tokens/);
        expect(block).toMatch(/verdict: ok \(HTTP 200, \d+ ms\)/);
      }
      const plain = await runMain(['verify', '--sim'], { cwd: project.dir });
      expect(plain.code).toBe(0);
      expect(plain.stdout).not.toMatch(/stream:/);
    } finally {
      await project.cleanup();
    }
  });

  describe('against a service of our own', () => {
    let service: LoopbackService;
    beforeAll(async () => {
      // A stream that breaks off after its first words: no finish_reason, no [DONE].
      service = await startLoopbackService((req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(
          `data: ${JSON.stringify({ id: 'x', model: req.model, choices: [{ index: 0, delta: { role: 'assistant', content: 'O' }, finish_reason: null }] })}\n\n`,
        );
        setTimeout(() => res.socket?.destroy(), 20);
      });
    });
    afterAll(() => service.close());

    it('sends stream: true (with stream_options.include_usage to the direct service); a cut stream is the verdict, exit 1', async () => {
      const project = await makeProject({
        'driftcheck.config.yaml': [
          'services:',
          `  a: { kind: router, base_url: ${service.url}/api/v1, api_key_env: A_KEY }`,
          `  b: { kind: direct, base_url: ${service.url}/v1, api_key_env: B_KEY }`,
          '',
        ].join('\n'),
      });
      try {
        const run = await runMain(['verify', '--model', 'm/x', '--stream'], {
          cwd: project.dir,
          env: { A_KEY: 'sk-or-v1-0123456789abcdef0123', B_KEY: 'sk-0123456789abcdef0123456789' },
        });
        expect(run.code).toBe(1);
        for (const name of ['a \\(router\\)', 'b \\(direct\\)'])
          expect(run.stdout).toMatch(
            new RegExp(`${name}[\\s\\S]*?stream: first token \\d+ ms · last token \\d+ ms · 1 chunk\\n`),
          );
        expect(
          run.stdout.match(/verdict: stream_interrupted .*broke off after 1 chunk, 1 character/g),
        ).toHaveLength(2);
        expect(service.seen.map((s) => [s.path, s.body?.stream, s.body?.stream_options])).toEqual([
          ['/api/v1/chat/completions', true, undefined],
          ['/v1/chat/completions', true, { include_usage: true }],
        ]);
      } finally {
        await project.cleanup();
      }
    });
  });
});
