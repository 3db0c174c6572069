import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { SIM_DIRECTIVE_HEADER } from '../../src/sim/protocol.js';
import type { Simulator } from '../../src/sim/server.js';
import { useSimulator } from './helpers.js';

// The official openai SDK runs the tool loop in its own code (`chat.completions.runTools`):
// it calls the functions below when the simulated model asks, sends the results back, and
// stops at the text answer. The simulator must play the model's side for it as for any client.

let sim: Simulator;
const KEYS = useSimulator((started) => {
  sim = started;
});

const PROMPT = 'Where is my order "A-1234"? Can I return it?';
const param = (name: string) => ({
  type: 'object',
  properties: { [name]: { type: 'string' } },
  required: [name],
  additionalProperties: false,
});

/** The SDK's runnable tools, each recording what it was called with. */
function tools(called: string[]) {
  return [
    {
      type: 'function' as const,
      function: {
        name: 'lookup_order',
        description: 'Look up an order by its id',
        parameters: param('order_id'),
        parse: JSON.parse,
        function: (args: { order_id: string }) => {
          called.push(`lookup_order ${JSON.stringify(args)}`);
          return { order_id: args.order_id, status: 'shipped', eta: 'Friday', sku: 'A-1' };
        },
      },
    },
    {
      type: 'function' as const,
      function: {
        name: 'check_policy',
        description: 'Check the return policy for a product',
        parameters: param('sku'),
        parse: JSON.parse,
        function: (args: { sku: string }) => {
          called.push(`check_policy ${JSON.stringify(args)}`);
          return { sku: args.sku, returnable: true, window_days: 30 };
        },
      },
    },
  ];
}

function client(directive?: object): OpenAI {
  return new OpenAI({
    apiKey: KEYS.router,
    baseURL: sim.routerBaseUrl,
    maxRetries: 0,
    ...(directive ? { defaultHeaders: { [SIM_DIRECTIVE_HEADER]: JSON.stringify(directive) } } : {}),
  });
}

describe("the openai SDK's tool runner against the simulator", () => {
  it.each([false, true])(
    'runs lookup_order → check_policy → the answer from both results (stream %s)',
    async (stream) => {
      const called: string[] = [];
      const body = {
        model: 'openai/gpt-4o-mini',
        messages: [{ role: 'user' as const, content: PROMPT }],
        tools: tools(called),
      };
      const completions = client().chat.completions;
      const runner = stream ? completions.runTools({ ...body, stream: true }) : completions.runTools(body);
      const answer = (await runner.finalContent()) ?? '';
      expect(called).toEqual(['lookup_order {"order_id":"A-1234"}', 'check_policy {"sku":"A-1"}']);
      for (const word of ['shipped', 'Friday', 'A-1', '30']) expect(answer).toContain(word);
      // user, call, result, call, result, answer
      expect(runner.messages.map((m) => m.role)).toEqual([
        'user',
        'assistant',
        'tool',
        'assistant',
        'tool',
        'assistant',
      ]);
    },
  );

  // The SDK replays only the request fields it knows (toRequestMessage in
  // lib/AbstractChatCompletionRunner: role, content, tool_calls, refusal, …): a reasoning
  // model's reasoning_details stay on runner.messages but are not sent back. A model that needs
  // them (drop_reasoning) then loses the thread after the first result.
  it('replays a reasoning model’s turn without its reasoning_details: drop_reasoning bites, as the fault says', async () => {
    const run = async (directive?: object) => {
      const called: string[] = [];
      const runner = client(directive).chat.completions.runTools({
        model: 'moonshotai/kimi-k2-thinking',
        messages: [{ role: 'user', content: PROMPT }],
        tools: tools(called),
      });
      const answer = (await runner.finalContent()) ?? '';
      return { called, answer, first: runner.messages[1] as unknown as Record<string, unknown> };
    };
    const plain = await run();
    expect(plain.called).toHaveLength(2);
    expect(plain.answer).toContain('Friday');
    expect(plain.first.reasoning_details).toBeDefined();
    const needy = await run({ agent_fault: 'drop_reasoning' });
    expect(needy.called).toEqual(['lookup_order {"order_id":"A-1234"}']);
    expect(needy.answer).not.toContain('Friday');
  });

  it('with the loop fault, the SDK stops at its own limit of completions, the same call each time', async () => {
    const called: string[] = [];
    const runner = client({ agent_fault: 'loop' }).chat.completions.runTools(
      { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: PROMPT }], tools: tools(called) },
      { maxChatCompletions: 4 },
    );
    await runner.done();
    expect(new Set(called)).toEqual(new Set(['lookup_order {"order_id":"A-1234"}']));
    expect(called.length).toBeGreaterThanOrEqual(3);
  });
});
