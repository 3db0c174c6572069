import { Ajv } from 'ajv';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSimKey } from '../../src/sim/server.js';
import { startSimProcess } from '../helpers/cli.js';

// `driftcheck sim`, spawned as users run it, answers tool requests that the official openai
// SDK parses, and its seeded provider trait replays: the router's DeepInfra misses the
// schema in about one tool call in ten, the same calls for the same --seed.

const PARAMS = {
  type: 'object',
  properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1, maximum: 7 } },
  required: ['city', 'days'],
  additionalProperties: false,
};
const valid = new Ajv().compile(PARAMS);
const TOOLS = [
  {
    type: 'function' as const,
    function: { name: 'get_forecast', description: 'Weather forecast', parameters: PARAMS },
  },
];

type Running = Awaited<ReturnType<typeof startSimProcess>>;
const sims: Running[] = [];
beforeAll(async () => {
  sims.push(await startSimProcess(['--seed', '11']), await startSimProcess(['--seed', '11']));
});
afterAll(() => Promise.all(sims.map((s) => s.stop())));

const router = (sim: Running) =>
  new OpenAI({ apiKey: generateSimKey('router'), baseURL: `${sim.url}/api/v1`, maxRetries: 0 });

/** Which of n identical tool requests, pinned to DeepInfra, came back with arguments the schema refuses. */
async function misses(sim: Running, n: number): Promise<number[]> {
  const client = router(sim);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = await client.chat.completions.create({
      model: 'meta-llama/llama-3.3-70b-instruct',
      messages: [{ role: 'user', content: 'Forecast for Oslo, 3 days' }],
      tools: TOOLS,
      provider: { order: ['deepinfra'] },
    } as OpenAI.ChatCompletionCreateParamsNonStreaming);
    const call = r.choices[0]!.message.tool_calls![0]!;
    if (call.type === 'function' && !valid(JSON.parse(call.function.arguments))) out.push(i);
  }
  return out;
}

describe('driftcheck sim (the spawned CLI) with tools', () => {
  it('answers a tool call the openai SDK parses', async () => {
    const r = await router(sims[0]!).chat.completions.create({
      model: 'meta-llama/llama-3.3-70b-instruct',
      messages: [{ role: 'user', content: 'Forecast for Oslo, 3 days' }],
      tools: TOOLS,
    });
    const call = r.choices[0]!.message.tool_calls![0]!;
    expect(r.choices[0]!.finish_reason).toBe('tool_calls');
    expect(call.type === 'function' && JSON.parse(call.function.arguments)).toEqual({
      city: 'Oslo',
      days: 3,
    });
  });

  it('replays the standing schema-mismatch trait under one --seed: the same requests miss, about 10 % of 200', async () => {
    const [a, b] = [await misses(sims[0]!, 200), await misses(sims[1]!, 200)];
    expect(a).toEqual(b);
    // 200 samples at p = 0.1: mean 20, sd 4.2.
    expect(a.length).toBeGreaterThanOrEqual(7);
    expect(a.length).toBeLessThanOrEqual(35);
  });
});
