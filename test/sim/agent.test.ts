import { describe, expect, it } from 'vitest';
import { SIM_DIRECTIVE_HEADER } from '../../src/sim/protocol.js';
import type { Simulator } from '../../src/sim/server.js';
import { dataChunks, useSimulator } from './helpers.js';

// The simulator plays the model's side of a tool loop. Each test drives the loop itself with
// plain fetch (not driftcheck's run code): send; on tool calls, append the assistant turn as
// received and one `tool` message per call (in call order) with the test's canned result; send
// again; until a text answer or MAX_STEPS.

let sim: Simulator;
const KEYS = useSimulator((started) => {
  sim = started;
});

const MODEL = 'openai/gpt-4o-mini';
const KIMI = 'moonshotai/kimi-k2-thinking';
const MAX_STEPS = 5;
const PROMPT = 'Where is my order "A-1234"? Can I return it?';

const fn = (name: string, description: string, property: string) => ({
  type: 'function',
  function: {
    name,
    description,
    parameters: {
      type: 'object',
      properties: { [property]: { type: 'string' } },
      required: [property],
      additionalProperties: false,
    },
  },
});
const LOOKUP = fn('lookup_order', 'Look up an order by its id', 'order_id');
const POLICY = fn('check_policy', 'Check the return policy for a product', 'sku');
const TRACK = fn('track_shipment', 'Where a parcel is now', 'tracking_number');

/** The tool side: canned results by tool name. */
const RESULTS: Record<string, (args: Record<string, unknown>) => unknown> = {
  lookup_order: (a) => ({ order_id: a.order_id, status: 'shipped', eta: 'Friday', sku: 'A-1' }),
  check_policy: (a) => ({ sku: a.sku, returnable: true, window_days: 30 }),
  track_shipment: (a) => ({ tracking_number: a.tracking_number, location: 'Rotterdam' }),
};
const WITH_TRACKING = {
  ...RESULTS,
  lookup_order: (a: Record<string, unknown>) => ({
    order_id: a.order_id,
    status: 'shipped',
    sku: 'A-1',
    tracking_number: 'TRK-9',
  }),
};

interface Step {
  calls: { name: string; arguments: Record<string, unknown> }[];
  content: string | null;
  /** The assistant message as received. */
  message: Record<string, unknown>;
}

interface Loop {
  model?: string;
  tools?: unknown[];
  results?: typeof RESULTS;
  directive?: Record<string, unknown>;
  prompt?: string;
  body?: Record<string, unknown>;
  /** Send each assistant turn back without its reasoning_details (a client that drops them). */
  dropReasoning?: boolean;
}

async function send(messages: unknown[], o: Loop): Promise<Record<string, unknown>> {
  const res = await fetch(`${sim.routerBaseUrl}/chat/completions`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${KEYS.router}`,
      'content-type': 'application/json',
      ...(o.directive ? { [SIM_DIRECTIVE_HEADER]: JSON.stringify(o.directive) } : {}),
    },
    body: JSON.stringify({
      model: o.model ?? MODEL,
      messages,
      tools: o.tools ?? [LOOKUP, POLICY],
      ...o.body,
    }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

/** Runs the loop; the steps the model took, the last one the text answer (or MAX_STEPS reached). */
async function runLoop(o: Loop = {}): Promise<Step[]> {
  const messages: Record<string, unknown>[] = [{ role: 'user', content: o.prompt ?? PROMPT }];
  const steps: Step[] = [];
  while (steps.length < MAX_STEPS) {
    const body = await send(messages, o);
    const choice = (body.choices as { message: Record<string, unknown>; finish_reason: string }[])[0]!;
    const message = choice.message;
    const calls = (message.tool_calls ?? []) as {
      id: string;
      function: { name: string; arguments: string };
    }[];
    steps.push({
      calls: calls.map((c) => ({
        name: c.function.name,
        arguments: JSON.parse(c.function.arguments) as Record<string, unknown>,
      })),
      content: message.content as string | null,
      message,
    });
    if (choice.finish_reason !== 'tool_calls') break;
    const { reasoning_details: _dropped, ...rest } = message;
    messages.push(o.dropReasoning ? rest : message);
    for (const c of calls) {
      const result = (o.results ?? RESULTS)[c.function.name]!(JSON.parse(c.function.arguments));
      messages.push({ role: 'tool', tool_call_id: c.id, content: JSON.stringify(result) });
    }
  }
  return steps;
}

const names = (steps: Step[]) => steps.map((s) => s.calls.map((c) => c.name));
const finalAnswer = (steps: Step[]) => steps[steps.length - 1]!.content ?? '';

describe('the simulator plays the model in a tool loop', () => {
  it('looks up the order, chains check_policy with the sku from the result, then answers from both results', async () => {
    const steps = await runLoop();
    expect(names(steps)).toEqual([['lookup_order'], ['check_policy'], []]);
    expect(steps[0]!.calls[0]!.arguments).toEqual({ order_id: 'A-1234' });
    expect(steps[1]!.calls[0]!.arguments).toEqual({ sku: 'A-1' });
    const answer = finalAnswer(steps);
    for (const word of ['shipped', 'Friday', 'A-1', '30']) expect(answer).toContain(word);
    // The same conversation again: the same transcript, word for word.
    const again = await runLoop();
    expect(again.map((s) => [s.calls, s.content])).toEqual(steps.map((s) => [s.calls, s.content]));
  });

  it('answers from the result when no other tool takes what it holds', async () => {
    const steps = await runLoop({ tools: [LOOKUP] });
    expect(names(steps)).toEqual([['lookup_order'], []]);
    expect(finalAnswer(steps)).toContain('Friday');
  });

  it('never makes the same chained call twice: a result that names the sku again ends the chain', async () => {
    const echo = { ...RESULTS, check_policy: () => ({ sku: 'A-1', order_id: 'A-1234', returnable: false }) };
    const steps = await runLoop({ results: echo });
    expect(names(steps)).toEqual([['lookup_order'], ['check_policy'], []]);
  });

  it('loop: calls the same tool with the same arguments again instead of going on', async () => {
    const steps = await runLoop({ directive: { agent_fault: 'loop' } });
    expect(steps).toHaveLength(MAX_STEPS);
    for (const s of steps)
      expect(s.calls).toEqual([{ name: 'lookup_order', arguments: { order_id: 'A-1234' } }]);
  });

  it('ignore_result: the same calls, but the answer lacks the results’ words', async () => {
    const steps = await runLoop({ directive: { agent_fault: 'ignore_result' } });
    expect(names(steps)).toEqual([['lookup_order'], ['check_policy'], []]);
    const answer = finalAnswer(steps);
    expect(answer).not.toBe('');
    for (const word of ['shipped', 'Friday', '30']) expect(answer).not.toContain(word);
  });

  it('stop_early: answers after the first result, one step fewer', async () => {
    const steps = await runLoop({ directive: { agent_fault: 'stop_early' } });
    expect(names(steps)).toEqual([['lookup_order'], []]);
    expect(finalAnswer(steps)).toContain('Friday');
  });

  it('a prompt marker sets the fault as the directive object does', async () => {
    const steps = await runLoop({ prompt: `${PROMPT} [sim:agent_fault=stop_early]` });
    expect(names(steps)).toEqual([['lookup_order'], []]);
  });

  it('reorder: the chained parallel calls come in reverse order', async () => {
    const tools = [LOOKUP, POLICY, TRACK];
    const normal = await runLoop({ tools, results: WITH_TRACKING });
    expect(names(normal)).toEqual([['lookup_order'], ['check_policy', 'track_shipment'], []]);
    expect(finalAnswer(normal)).toContain('Rotterdam');
    const reordered = await runLoop({ tools, results: WITH_TRACKING, directive: { agent_fault: 'reorder' } });
    expect(names(reordered)).toEqual([['lookup_order'], ['track_shipment', 'check_policy'], []]);
    // parallel_tool_calls: false → one chained call a step.
    const serial = await runLoop({ tools, results: WITH_TRACKING, body: { parallel_tool_calls: false } });
    expect(names(serial)).toEqual([['lookup_order'], ['check_policy'], ['track_shipment'], []]);
  });

  it('a fault with a provider hits that provider alone', async () => {
    const directive = { agent_fault: 'stop_early', provider: 'Azure' };
    const azure = await runLoop({ model: 'openai/gpt-4o', directive });
    expect(names(azure)).toEqual([['lookup_order'], []]);
    const openai = await runLoop({
      model: 'openai/gpt-4o',
      directive,
      body: { provider: { only: ['openai'] } },
    });
    expect(names(openai)).toEqual([['lookup_order'], ['check_policy'], []]);
  });
});

describe('reasoning models and their providers', () => {
  it('a reasoning model’s tool-call turns carry reasoning and signed reasoning_details', async () => {
    const steps = await runLoop({ model: KIMI });
    expect(names(steps)).toEqual([['lookup_order'], ['check_policy'], []]);
    const details = steps[0]!.message.reasoning_details as Record<string, unknown>[];
    expect(details).toEqual([
      expect.objectContaining({ type: 'reasoning.text', format: 'unknown', index: 0 }),
    ]);
    expect(details[0]!.text).toBe(steps[0]!.message.reasoning);
    expect(details[0]!.signature).toMatch(/^[0-9a-f]{32}$/);
    // The plain model's turns have none.
    expect((await runLoop())[0]!.message).not.toHaveProperty('reasoning_details');
  });

  it('drop_reasoning: answers without the results only when the reasoning_details were not sent back', async () => {
    const directive = { agent_fault: 'drop_reasoning' };
    const kept = await runLoop({ model: KIMI, directive });
    expect(names(kept)).toEqual([['lookup_order'], ['check_policy'], []]);
    expect(finalAnswer(kept)).toContain('Friday');
    const dropped = await runLoop({ model: KIMI, directive, dropReasoning: true });
    expect(names(dropped)).toEqual([['lookup_order'], []]);
    for (const word of ['shipped', 'Friday']) expect(finalAnswer(dropped)).not.toContain(word);
    // Without the fault, a turn sent back without them is answered as usual.
    const lenient = await runLoop({ model: KIMI, dropReasoning: true });
    expect(names(lenient)).toEqual(names(kept));
  });

  it('altered reasoning_details count as dropped', async () => {
    const messages: Record<string, unknown>[] = [{ role: 'user', content: PROMPT }];
    const o = { model: KIMI, tools: [LOOKUP], directive: { agent_fault: 'drop_reasoning' } };
    const first = await send(messages, o);
    const message = (first.choices as { message: Record<string, unknown> }[])[0]!.message;
    const [call] = message.tool_calls as { id: string }[];
    const details = message.reasoning_details as Record<string, unknown>[];
    const result = { role: 'tool', tool_call_id: call!.id, content: '{"status":"shipped","eta":"Friday"}' };
    const answer = async (sent: unknown) => {
      const r = await send([...messages, { ...message, reasoning_details: sent }, result], o);
      return (r.choices as { message: { content: string } }[])[0]!.message.content;
    };
    expect(await answer(details)).toContain('Friday');
    expect(await answer([{ ...details[0], signature: 'forged' }])).not.toContain('Friday');
  });

  it('streams the reasoning, in pieces, before the calls', async () => {
    const res = await fetch(`${sim.routerBaseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEYS.router}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: KIMI,
        messages: [{ role: 'user', content: PROMPT }],
        tools: [LOOKUP, POLICY],
        stream: true,
      }),
    });
    const deltas = dataChunks(await res.text())
      .map((c: { choices: { delta?: Record<string, unknown> }[] }) => c.choices[0]?.delta)
      .filter((d) => d !== undefined);
    const firstCall = deltas.findIndex((d) => d.tool_calls !== undefined);
    expect(firstCall).toBeGreaterThan(1);
    expect(deltas.slice(0, firstCall).every((d) => d.reasoning_details !== undefined)).toBe(true);
    expect(deltas.slice(firstCall).some((d) => d.reasoning_details !== undefined)).toBe(false);
    expect(deltas[0]!.reasoning_details).toEqual([expect.objectContaining({ type: 'reasoning.text' })]);
  });

  const on = (provider: string): Loop => ({ model: KIMI, body: { provider: { order: [provider] } } });

  it('standing traits: Fireworks reverses parallel calls, Moonshot AI (the default) does not', async () => {
    const tools = [LOOKUP, POLICY, TRACK];
    const fireworks = await runLoop({ ...on('fireworks'), tools, results: WITH_TRACKING });
    expect(names(fireworks)[1]).toEqual(['track_shipment', 'check_policy']);
    const moonshot = await runLoop({ model: KIMI, tools, results: WITH_TRACKING });
    expect(names(moonshot)[1]).toEqual(['check_policy', 'track_shipment']);
  });

  it('standing traits: Chutes needs its reasoning back, Moonshot AI answers either way', async () => {
    expect(names(await runLoop({ ...on('chutes'), dropReasoning: true }))).toEqual([['lookup_order'], []]);
    expect(names(await runLoop({ dropReasoning: true, model: KIMI }))).toEqual([
      ['lookup_order'],
      ['check_policy'],
      [],
    ]);
  });

  // 60 conversations at p = 0.2 of looping at step 2: mean 12, sd 3.1; the bounds are 3 sd away.
  it('standing traits: Together loops in about one request in five; Moonshot AI never', async () => {
    let loops = 0;
    for (let i = 0; i < 60; i++) {
      const steps = await runLoop({ ...on('together'), tools: [LOOKUP] });
      if (steps[1]!.calls.length > 0) loops++;
    }
    expect(loops).toBeGreaterThanOrEqual(3);
    expect(loops).toBeLessThanOrEqual(21);
    for (let i = 0; i < 10; i++)
      expect(names(await runLoop({ model: KIMI, tools: [LOOKUP] }))[1]).toEqual([]);
  });
});
