import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { SIM_DIRECTIVE_HEADER } from '../../src/sim/protocol.js';
import type { Simulator } from '../../src/sim/server.js';
import type { SimFlavour } from '../../src/adapters/index.js';
import { complete, dataChunks, useSimulator } from './helpers.js';

let sim: Simulator;
const KEYS = useSimulator((started) => {
  sim = started;
});

const WEATHER_PARAMS = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
  },
  required: ['city'],
  additionalProperties: false,
};
const TOOLS = [
  {
    type: 'function',
    function: { name: 'get_weather', description: 'Current weather for a city', parameters: WEATHER_PARAMS },
  },
  {
    type: 'function',
    function: {
      name: 'search_docs',
      description: 'Search the documentation',
      parameters: {
        type: 'object',
        properties: { query: { type: 'string' }, limit: { type: 'integer', minimum: 1, maximum: 10 } },
        required: ['query', 'limit'],
      },
    },
  },
];
const validWeather = new Ajv().compile(WEATHER_PARAMS);

function ask(kind: SimFlavour, content: string, body: Record<string, unknown> = {}, directive?: object) {
  return complete(sim, kind, KEYS[kind], {
    content,
    body: { tools: TOOLS, ...body },
    ...(directive ? { headers: { [SIM_DIRECTIVE_HEADER]: JSON.stringify(directive) } } : {}),
  });
}
const message = (r: { json: { choices: { message: Record<string, unknown> }[] } }) =>
  r.json.choices[0]!.message;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the wire shape under test
const callsOf = (r: any): { id: string; type: string; function: { name: string; arguments: string } }[] =>
  r.json.choices[0].message.tool_calls ?? [];

describe.each<SimFlavour>(['router', 'direct'])('tool calls on the %s service', (kind) => {
  it("answers in OpenAI's shape: content null, tool_calls with call_ ids and JSON string arguments, finish tool_calls", async () => {
    const r = await ask(kind, 'What is the weather in Paris in celsius?');
    expect(r.status).toBe(200);
    expect(message(r).content).toBeNull();
    expect(r.json.choices[0].finish_reason).toBe('tool_calls');
    const [call, ...rest] = callsOf(r);
    expect(rest).toEqual([]);
    expect(call!.id).toMatch(/^call_[A-Za-z0-9]{24}$/);
    expect(call!.type).toBe('function');
    expect(call!.function.name).toBe('get_weather');
    expect(typeof call!.function.arguments).toBe('string');
    expect(JSON.parse(call!.function.arguments)).toEqual({ city: 'Paris', unit: 'celsius' });
  });

  it('is deterministic: the same request, the same calls (ids aside)', async () => {
    const strip = (r: unknown) => callsOf(r).map((c) => c.function);
    expect(strip(await ask(kind, 'Search the docs for refund policy, top 3'))).toEqual(
      strip(await ask(kind, 'Search the docs for refund policy, top 3')),
    );
  });

  it('calls tools in parallel unless parallel_tool_calls is false', async () => {
    const prompt = 'Search the docs for umbrellas and tell me the weather in Oslo';
    const both = callsOf(await ask(kind, prompt));
    expect(both.map((c) => c.function.name)).toEqual(['search_docs', 'get_weather']);
    expect(new Set(both.map((c) => c.id)).size).toBe(2);
    const one = callsOf(await ask(kind, prompt, { parallel_tool_calls: false }));
    expect(one.map((c) => c.function.name)).toEqual(['search_docs']);
  });

  it('answers in text when no tool fits, and calls when tool_choice requires it or names one', async () => {
    const text = await ask(kind, 'Tell me a joke');
    expect(text.json.choices[0].finish_reason).toBe('stop');
    expect(message(text).content).toEqual(expect.any(String));
    expect(message(text).tool_calls).toBeUndefined();
    expect(callsOf(await ask(kind, 'Tell me a joke', { tool_choice: 'required' })).length).toBe(1);
    const named = callsOf(
      await ask(kind, 'Tell me a joke', {
        tool_choice: { type: 'function', function: { name: 'search_docs' } },
      }),
    );
    expect(named.map((c) => c.function.name)).toEqual(['search_docs']);
    expect(callsOf(await ask(kind, 'Weather in Rome?', { tool_choice: 'none' }))).toEqual([]);
  });

  it('answers a follow-up turn with tool results in text that uses their content', async () => {
    const r = await complete(sim, kind, KEYS[kind], {
      body: {
        tools: TOOLS,
        messages: [
          { role: 'user', content: 'What is the weather in Paris?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_1',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
              },
            ],
          },
          { role: 'tool', tool_call_id: 'call_1', content: 'Sunny, 24 degrees in Paris.' },
        ],
      },
    });
    expect(r.json.choices[0].finish_reason).toBe('stop');
    expect(message(r).content).toContain('Sunny, 24 degrees in Paris.');
  });

  it('streams tool calls as OpenAI chunk deltas that add up to the same calls', async () => {
    const prompt = 'Search the docs for umbrellas and tell me the weather in Oslo';
    const whole = callsOf(await ask(kind, prompt));
    const r = await ask(kind, prompt, { stream: true });
    const chunks = dataChunks(r.text);
    const built: { id?: string; type?: string; name: string; arguments: string }[] = [];
    let finish: string | null = null;
    let pieces = 0;
    for (const chunk of chunks) {
      expect(chunk.object).toBe('chat.completion.chunk');
      for (const choice of chunk.choices) {
        finish = choice.finish_reason ?? finish;
        for (const d of choice.delta.tool_calls ?? []) {
          expect(d.index).toEqual(expect.any(Number));
          const slot = (built[d.index] ??= { name: '', arguments: '' });
          if (d.id) [slot.id, slot.type] = [d.id, d.type];
          slot.name += d.function?.name ?? '';
          slot.arguments += d.function?.arguments ?? '';
          pieces++;
        }
      }
    }
    expect(finish).toBe('tool_calls');
    expect(pieces).toBeGreaterThan(whole.length); // arguments arrive in pieces after each call's head
    expect(built.map((c) => ({ name: c.name, arguments: c.arguments, type: c.type }))).toEqual(
      whole.map((c) => ({ ...c.function, type: 'function' })),
    );
    expect(built.every((c) => /^call_/.test(c.id ?? ''))).toBe(true);
  });

  it('honours response_format: json_object gives a JSON object, json_schema content valid against the schema', async () => {
    const obj = await ask(kind, 'Give me the order status', {
      tools: undefined,
      response_format: { type: 'json_object' },
    });
    expect(JSON.parse(message(obj).content as string)).toEqual(expect.any(Object));
    const schema = {
      type: 'object',
      properties: {
        order_id: { type: 'integer' },
        customer: { type: 'string' },
        status: { enum: ['open', 'closed'] },
      },
      required: ['order_id', 'customer', 'status'],
      additionalProperties: false,
    };
    const r = await ask(kind, 'Order 42 for Jane is closed', {
      tools: undefined,
      response_format: { type: 'json_schema', json_schema: { name: 'order', strict: true, schema } },
    });
    expect(r.json.choices[0].finish_reason).toBe('stop');
    expect(JSON.parse(message(r).content as string)).toEqual({
      order_id: 42,
      customer: 'Jane',
      status: 'closed',
    });
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['tools not an array', { tools: 'get_weather' }, "Invalid type for 'tools'"],
    ['an empty tools array', { tools: [] }, 'empty array'],
    ['a tool of another type', { tools: [{ type: 'retrieval' }] }, 'Supported values are'],
    ['a tool without a name', { tools: [{ type: 'function', function: {} }] }, "'tools[0].function.name'"],
    [
      'a name with spaces',
      { tools: [{ type: 'function', function: { name: 'get weather' } }] },
      'does not match pattern',
    ],
    [
      'parameters of type string',
      { tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'string' } } }] },
      'type: "object"',
    ],
    [
      'tool_choice naming an undeclared tool',
      { tool_choice: { type: 'function', function: { name: 'nope' } } },
      "'nope'",
    ],
    ['tool_choice without tools', { tools: undefined, tool_choice: 'auto' }, "only allowed when 'tools'"],
    ['parallel_tool_calls not a boolean', { parallel_tool_calls: 'yes' }, 'expected a boolean'],
    ['a response_format of another type', { response_format: { type: 'xml' } }, "'json_schema'"],
    [
      'json_schema without a name',
      { response_format: { type: 'json_schema', json_schema: { schema: {} } } },
      'json_schema.name',
    ],
  ])('refuses %s with a 400 in its own error shape', async (_what, body, says) => {
    const r = await ask(kind, 'What is the weather in Paris?', body);
    expect(r.status).toBe(400);
    expect(r.json.error.message).toContain(says);
    if (kind === 'router') expect(r.json.error.code).toBe(400);
    else expect(r.json.error.param).toEqual(expect.any(String));
  });
});

describe('tool faults as directives (x-driftcheck-sim header, or sim: in a suite)', () => {
  const PROMPT = 'What is the weather in Paris in celsius?';
  const parses = (text: string) => {
    try {
      JSON.parse(text);
      return true;
    } catch {
      return false;
    }
  };

  it('invalid_json: the arguments are not JSON', async () => {
    const [call] = callsOf(await ask('direct', PROMPT, {}, { tool_fault: 'invalid_json' }));
    expect(call!.function.name).toBe('get_weather');
    expect(parses(call!.function.arguments)).toBe(false);
  });

  it('unknown_tool: a name that was not declared', async () => {
    const [call] = callsOf(await ask('router', PROMPT, {}, { tool_fault: 'unknown_tool' }));
    expect(TOOLS.map((t) => t.function.name)).not.toContain(call!.function.name);
    expect(validWeather(JSON.parse(call!.function.arguments))).toBe(true);
  });

  it('schema_mismatch: JSON that misses the schema', async () => {
    const [call] = callsOf(await ask('direct', PROMPT, {}, { tool_fault: 'schema_mismatch' }));
    expect(validWeather(JSON.parse(call!.function.arguments))).toBe(false);
  });

  it('no_call: a text answer where a call was due', async () => {
    const r = await ask('router', PROMPT, {}, { tool_fault: 'no_call' });
    expect(r.json.choices[0].finish_reason).toBe('stop');
    expect(callsOf(r)).toEqual([]);
  });

  it('parallel_calls: two calls although parallel_tool_calls is false', async () => {
    expect(
      callsOf(await ask('direct', PROMPT, { parallel_tool_calls: false }, { tool_fault: 'parallel_calls' }))
        .length,
    ).toBe(2);
  });

  it('ignore_tools and ignore_response_format: dropped, unless the router request requires its parameters', async () => {
    expect(callsOf(await ask('direct', PROMPT, {}, { tool_fault: 'ignore_tools' }))).toEqual([]);
    const format = { tools: undefined, response_format: { type: 'json_object' } };
    const plain = await ask('direct', 'Tell me about Paris', format, {
      tool_fault: 'ignore_response_format',
    });
    expect(parses(message(plain).content as string)).toBe(false);
    const required = { provider: { require_parameters: true } };
    expect(callsOf(await ask('router', PROMPT, required, { tool_fault: 'ignore_tools' })).length).toBe(1);
  });

  it('refuses an unknown tool_fault or a rate out of range, naming the choices', async () => {
    const r = await ask('router', PROMPT, {}, { tool_fault: 'bogus' });
    expect(r.status).toBe(400);
    expect(r.json.error.message).toContain('invalid_json, unknown_tool, schema_mismatch');
    expect((await ask('direct', PROMPT, {}, { tool_fault: 'no_call', tool_fault_rate: 2 })).status).toBe(400);
  });
});
