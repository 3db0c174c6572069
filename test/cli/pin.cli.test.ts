import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeProject, readReport, runDirFrom } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';

const SUITE = `# keep me\nsuite: latest\nservice: router\nmodel: ~anthropic/claude-opus-latest  # moves\ncases:\n  - id: a\n    prompt: "Say exactly: ok"\n    expect: [{ equals: ok }]\n`;

describe('driftcheck pin', () => {
  it('pins to the catalog target on the simulator; the pinned suite then runs without --allow-alias', async () => {
    const project = await makeProject({ 'suites/latest.yaml': SUITE });
    try {
      const pin = await runMain(['pin', 'suites/latest.yaml', '--sim'], { cwd: project.dir });
      expect(pin.code).toBe(0);
      expect(pin.stdout).toBe(
        'suites/latest.yaml:4: pinned ~anthropic/claude-opus-latest → anthropic/claude-opus-4.5\n',
      );
      const text = await readFile(join(project.dir, 'suites/latest.yaml'), 'utf8');
      expect(text).toBe(SUITE.replace('~anthropic/claude-opus-latest', 'anthropic/claude-opus-4.5'));
      expect((await runMain(['run', '--sim'], { cwd: project.dir })).code).toBe(0);
    } finally {
      await project.cleanup();
    }
  });

  it('falls back to one minimal call when the catalog cannot be read, and --dry-run writes nothing', async () => {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      if (req.url?.endsWith('/models')) return void res.writeHead(503).end('down');
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        const model =
          JSON.parse(body).model === '~anthropic/claude-opus-latest' ? 'anthropic/claude-opus-4.1' : 'x';
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            id: 'gen-1',
            model,
            choices: [{ message: { role: 'assistant', content: 'p' }, finish_reason: 'length' }],
          }),
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    const project = await makeProject({
      'suites/latest.yaml': SUITE,
      'driftcheck.config.yaml': `services:\n  router: { kind: router, base_url: http://127.0.0.1:${port}/api/v1, api_key_env: OPENROUTER_API_KEY }\n`,
    });
    try {
      const env = { OPENROUTER_API_KEY: `sk-or-v1-${'ab'.repeat(32)}` };
      const pin = await runMain(['pin', 'suites/latest.yaml', '--dry-run'], { cwd: project.dir, env });
      expect(pin.code).toBe(0);
      expect(pin.stdout).toContain(
        'would pin ~anthropic/claude-opus-latest → anthropic/claude-opus-4.1 (dry run: nothing written)',
      );
      expect(seen).toEqual(['GET /api/v1/models', 'POST /api/v1/chat/completions']);
      expect(await readFile(join(project.dir, 'suites/latest.yaml'), 'utf8')).toBe(SUITE);
    } finally {
      server.close();
      await project.cleanup();
    }
  });

  it('--provider pins the provider that serves today, and the pin holds when the router moves the load', async () => {
    const suite = (name: string, tonight?: string) =>
      [
        `# ${name}: keep this comment`,
        `suite: ${name}`,
        'service: router',
        'model: meta-llama/llama-3.3-70b-instruct',
        'cases:',
        '  - id: sky',
        '    prompt: "Why is the sky blue?"',
        ...(tonight ? [`    sim: { provider: ${tonight} }`] : []),
        '    expect: [{ non_empty: true }]',
        '',
      ].join('\n');
    const project = await makeProject({
      'suites/pinned.yaml': suite('pinned'),
      'suites/loose.yaml': suite('loose'),
    });
    const file = join(project.dir, 'suites/pinned.yaml');
    try {
      const dry = await runMain(['pin', 'suites/pinned.yaml', '--provider', '--sim', '--dry-run'], {
        cwd: project.dir,
      });
      expect(dry.stdout).toContain('would pin provider DeepInfra');
      expect(await readFile(file, 'utf8')).toBe(suite('pinned'));

      const pin = await runMain(['pin', 'suites/pinned.yaml', '--provider', '--sim'], { cwd: project.dir });
      expect(pin.code).toBe(0);
      expect(pin.stdout).toBe(
        'suites/pinned.yaml:6: pinned provider DeepInfra for meta-llama/llama-3.3-70b-instruct → ' +
          'params.provider: { only: [deepinfra], allow_fallbacks: false }\n',
      );
      const pinned = await readFile(file, 'utf8');
      expect(pinned).toBe(
        suite('pinned').replace(
          'cases:',
          'params:\n  provider: { only: ["deepinfra"], allow_fallbacks: false }\ncases:',
        ),
      );
      const again = await runMain(['pin', 'suites/pinned.yaml', '--provider', '--sim'], { cwd: project.dir });
      expect(again.stdout).toContain('already pins its provider');

      expect((await runMain(['run', '--sim', '--update-baselines'], { cwd: project.dir })).code).toBe(0);
      // Tonight the router would serve the model from Groq: only the unpinned suite moves.
      await writeFile(file, pinned.replace('    expect:', '    sim: { provider: Groq }\n    expect:'));
      await writeFile(join(project.dir, 'suites/loose.yaml'), suite('loose', 'Groq'));
      const tonight = await runMain(['run', '--sim'], { cwd: project.dir });
      expect(tonight.code).toBe(1);
      const report = await readReport(runDirFrom(tonight, project.dir));
      const kinds = (name: string) => report.cases.find((c) => c.suite === name)!.drift.map((d) => d.kind);
      expect(report.cases.find((c) => c.suite === 'pinned')!.providers).toEqual(['DeepInfra']);
      expect(kinds('pinned')).not.toContain('provider_changed');
      expect(report.cases.find((c) => c.suite === 'loose')!.providers).toEqual(['Groq']);
      expect(kinds('loose')).toContain('provider_changed');
    } finally {
      await project.cleanup();
    }
  });
  it('--provider on a suite with tools learns the provider from a request carrying them: Together, not the plain default DeepInfra', async () => {
    const tools = {
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_order_status',
            description: 'Look up where an order is',
            parameters: {
              type: 'object',
              required: ['order_id'],
              properties: { order_id: { type: 'string' } },
            },
          },
        },
      ],
    };
    const suite = [
      'suite: tooled',
      'service: router',
      'model: meta-llama/llama-3.3-70b-instruct',
      'params:',
      '  tools: ../tools/orders.json',
      'cases:',
      '  - id: status',
      '    prompt: "Where is my order A-1234? What is its status?"',
      '    expect: [{ tool_call: get_order_status }, { tool_calls_valid: true }]',
      '',
    ].join('\n');
    // Without the tools, a check of a call of one could never pass (it would be refused).
    const plain = suite
      .replace('params:\n  tools: ../tools/orders.json\n', '')
      .replace('tooled', 'plain')
      .replace('[{ tool_call: get_order_status }, { tool_calls_valid: true }]', '[{ non_empty: true }]');
    const project = await makeProject({
      'suites/tooled.yaml': suite,
      'suites/plain.yaml': plain,
      'tools/orders.json': JSON.stringify(tools),
    });
    try {
      const pin = await runMain(['pin', 'suites/tooled.yaml', 'suites/plain.yaml', '--provider', '--sim'], {
        cwd: project.dir,
      });
      expect(pin.code, pin.stderr).toBe(0);
      expect(pin.stdout).toContain(
        "pinned provider Together for meta-llama/llama-3.3-70b-instruct (learned from a request carrying the suite's tools) → " +
          'params.provider: { only: [together], allow_fallbacks: false }\n',
      );
      // The same model without tools is served by another provider: what a plain probe would have pinned.
      expect(pin.stdout).toContain(
        'suites/plain.yaml:5: pinned provider DeepInfra for meta-llama/llama-3.3-70b-instruct → ',
      );
      const written = await readFile(join(project.dir, 'suites/tooled.yaml'), 'utf8');
      expect(written).toContain('provider: { only: ["together"], allow_fallbacks: false }');
      const run = await runMain(['run', '--sim', 'suites/tooled.yaml', '--reporter', 'json'], {
        cwd: project.dir,
      });
      expect(run.code, run.stderr).toBe(0);
      const [c] = (await readReport(runDirFrom(run, project.dir))).cases;
      expect(c!.providers).toEqual(['Together']);
      expect(c!.tool_use).toMatchObject({ triggered: 1, valid: 1 });
    } finally {
      await project.cleanup();
    }
  });
});
