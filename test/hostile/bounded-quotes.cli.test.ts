import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeProject, readRawReport, readSamples, runDirFrom } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';
import { embedded } from '../report/fixture.js';
import { completion, sendJson, startLoopbackService } from './loopback.js';

const ENV = { OPENROUTER_API_KEY: `sk-or-v1-${'6'.repeat(48)}` };
const config = (url: string) => `services:
  router: { kind: router, base_url: ${url}/api/v1, api_key_env: OPENROUTER_API_KEY, retries: 0 }
`;
const size = async (file: string) => (await stat(file)).size;

/** One answer that makes `calls` calls of get_weather with arguments that break its schema. */
function manyCalls(calls: number): string {
  return JSON.stringify({
    id: 'gen-1',
    model: 'openai/gpt-4o-mini',
    choices: [
      {
        index: 0,
        finish_reason: 'tool_calls',
        message: {
          role: 'assistant',
          content: null,
          tool_calls: Array.from({ length: calls }, (_, i) => ({
            id: `call_${i}`,
            type: 'function',
            function: { name: 'get_weather', arguments: `{"city":${i}}` },
          })),
        },
      },
    ],
    usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
  });
}

describe('what a message and a report quote is bounded', () => {
  it('an answer of 5,000 tool calls: each check and drift message says at most 500 characters, and how many calls it left out', async () => {
    let calls = 1;
    const service = await startLoopbackService((_req, res) => sendJson(res, 200, manyCalls(calls)));
    const project = await makeProject({
      'driftcheck.config.yaml': config(service.url),
      'suites/calls.yaml': `suite: calls
service: router
model: openai/gpt-4o-mini
params:
  tools:
    - type: function
      function:
        name: get_weather
        parameters: { type: object, required: [city], properties: { city: { type: string } } }
cases:
  - id: flood
    prompt: weather
    expect:
      - tool_calls_valid: true
      - tool_call: { name: get_weather, arguments: { city: Paris } }
      - no_tool_call: true
`,
    });
    try {
      // Last night one call was the baseline; tonight the answer makes 5,000.
      const first = await runMain(['run', '--update-baselines'], { cwd: project.dir, env: ENV });
      expect(first.stderr).not.toMatch(/internal error/);
      calls = 5_000;
      const run = await runMain(['run'], { cwd: project.dir, env: ENV });
      expect(run.stderr).not.toMatch(/internal error/);
      expect(run.code, run.stderr).toBe(1);
      const dir = runDirFrom(run, project.dir);

      // The console printed ~437 KB for this one case.
      expect(run.stdout.length).toBeLessThan(8_000);
      const [sample] = await readSamples(dir);
      expect(sample!.tool_calls).toHaveLength(5_000);
      for (const check of sample!.checks) expect(check.message.length, check.type).toBeLessThanOrEqual(500);
      expect(sample!.checks[0]!.message).toMatch(
        /^get_weather\(\{"city":0\}\): schema_mismatch: \/city must be string; .*; … and 49\d\d more$/,
      );
      expect(sample!.checks[2]!.message).toMatch(
        /^expected no tool call, got get_weather\(\{"city":0\}\), .*, … and 49\d\d more$/,
      );
      const report = await readRawReport(dir);
      const drift = (report.cases[0] as { drift: { kind: string; message: string }[] }).drift;
      expect(drift.map((d) => d.kind)).toContain('tool_call_changed');
      for (const d of drift) expect(d.message.length, d.kind).toBeLessThanOrEqual(500);
      expect(drift.find((d) => d.kind === 'tool_call_changed')!.message).toMatch(/… and 49\d\d more$/);

      // The page shows the first 100 calls and says how many it left out.
      const html = await readFile(join(dir, 'report.html'), 'utf8');
      const page = embedded(html).cases[0] as unknown as { tool_calls: unknown[]; more_calls: number[] };
      expect(page.tool_calls).toHaveLength(100);
      expect(page.more_calls).toEqual([4_900, 0]);
      for (const file of ['junit.xml', 'summary.md'])
        expect(await size(join(dir, file)), file).toBeLessThan(20_000);
    } finally {
      await service.close();
      await project.cleanup();
    }
  });

  it('a table cell of 10 MB: report.html quotes 64 KiB of the prompt and says how much it left out; report.json keeps it whole', async () => {
    const service = await startLoopbackService((_req, res) =>
      sendJson(res, 200, completion('A short summary.')),
    );
    const cell = 'lorem ipsum '.repeat(Math.ceil((10 * 1024 * 1024) / 12));
    const project = await makeProject({
      'driftcheck.config.yaml': config(service.url),
      'suites/big.yaml': `suite: big
service: router
model: openai/gpt-4o-mini
tables:
  - path: data/rows.jsonl
    case:
      id: "row-{{id}}"
      prompt: "Summarise: {{text}}"
      expect: [{ contains: "{{text}}" }]
`,
      'suites/data/rows.jsonl': `${JSON.stringify({ id: 'big', text: cell })}\n${JSON.stringify({ id: 'small', text: 'summary' })}\n`,
    });
    try {
      const run = await runMain(['run'], { cwd: project.dir, env: ENV });
      expect(run.stderr).not.toMatch(/internal error/);
      expect(run.code, run.stderr).toBe(1);
      const dir = runDirFrom(run, project.dir);
      const prompt = `Summarise: ${cell}`;

      // It wrote the 10 MB prompt into report.html as it was.
      const html = await readFile(join(dir, 'report.html'), 'utf8');
      expect(html.length).toBeLessThan(200_000);
      const big = embedded(html).cases.find((c) => c.case === 'row-big')!;
      const shown = big.messages.at(-1)!.content ?? '';
      expect(shown).toHaveLength(64 * 1024);
      const [, kept, more] = /^(Summarise: lorem ipsum .*)… \(\+(\d+) characters\)$/s.exec(shown)!;
      expect(prompt.startsWith(kept!)).toBe(true);
      expect(kept!.length + Number(more)).toBe(prompt.length);
      expect(big.truncated).toBe(true);
      // The check quotes a piece of the expected text, within the message bound.
      const [sample] = (await readSamples(dir)).filter((s) => s.case === 'row-big');
      expect(sample!.checks[0]!.message.length).toBeLessThanOrEqual(500);
      // report.json is the record: the prompt whole.
      const report = await readRawReport(dir);
      const line = report.cases.find((c) => c.case === 'row-big') as { messages: { content: string }[] };
      expect(line.messages.at(-1)!.content).toBe(prompt);
    } finally {
      await service.close();
      await project.cleanup();
    }
  });
});
