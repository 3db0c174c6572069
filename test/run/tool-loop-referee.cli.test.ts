import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OpenRouter } from '@openrouter/sdk';
import type { ChatMessages, ChatResult } from '@openrouter/sdk/models';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSimKey } from '../../src/sim/server.js';
import { makeProject, readSamples, runDirFrom } from '../helpers/cli.js';
import { runMain, startSim } from '../helpers/main.js';

// Referees for driftcheck's tool loop (issue 35, item 9): the same conversation driven three
// ways against the simulator — driftcheck's `run` on a case with tool_results, the openai
// SDK's own tool runner (`chat.completions.runTools`, the loop in the SDK's code) and
// @openrouter/sdk's `chat.send` in the loop an application writes around it (the SDK's own
// tool runner, `callModel`, now moved to @openrouter/agent, speaks the Responses API, not chat
// completions, so it cannot referee this loop) — each through a recording proxy of this
// test's own that forwards to the simulator and keeps every exchange. The requests must be
// the same, request by request, and driftcheck's journaled trajectory and answer the referees'.

const ROUTER_KEY = generateSimKey('router');
const DIRECT_KEY = generateSimKey('direct');
const ENV = { OPENROUTER_API_KEY: ROUTER_KEY, DIRECT_API_KEY: DIRECT_KEY };

const param = (...names: string[]) => ({
  type: 'object',
  properties: Object.fromEntries(names.map((n) => [n, { type: 'string' }])),
  required: names,
  additionalProperties: false,
});

/** A conversation to referee: the first message, the tools as declared, each tool's canned result. */
interface Flow {
  prompt: string;
  tools: { name: string; description: string; parameters: object }[];
  results: Record<string, object>;
  /** The requests the conversation takes against the simulator (its chaining rule decides). */
  requests: number;
}

const FLOWS: Record<string, Flow> = {
  // lookup_order → check_policy (the simulator chains lookup_order's sku into it) → the answer.
  order: {
    prompt: 'Where is my order "A-1234"? Can I return it?',
    tools: [
      { name: 'lookup_order', description: 'Look up an order by its id', parameters: param('order_id') },
      {
        name: 'check_policy',
        description: 'Check the return policy for a product',
        parameters: param('sku'),
      },
    ],
    results: {
      lookup_order: { order_id: 'A-1234', status: 'shipped', eta: 'Friday', sku: 'A-1' },
      check_policy: { sku: 'A-1', returnable: true, window_days: 30 },
    },
    requests: 3,
  },
  // Two calls in one turn → both results in one turn, in call order → the answer.
  parallel: {
    prompt: 'Search the docs for umbrellas and tell me the weather in Oslo in celsius',
    tools: [
      { name: 'get_weather', description: 'Current weather for a city', parameters: param('city', 'unit') },
      { name: 'search_docs', description: 'Search the documentation', parameters: param('query') },
    ],
    results: {
      get_weather: { city: 'Oslo', temperature: 4, conditions: 'rain' },
      search_docs: { hits: ['Umbrella policy', 'Rain gear'] },
    },
    requests: 2,
  },
};

type Body = Record<string, unknown> & { messages: Record<string, unknown>[] };
type Reply = { choices?: { message?: { tool_calls?: { id: string }[] } }[] };
interface Exchange {
  body: Body;
  reply: Reply;
}

/**
 * A loopback proxy in front of the simulator: forwards every request as it came (method,
 * path, headers, body) and the simulator's answer as it went, and keeps each POST
 * …/chat/completions with its answer. `take()` returns the exchanges kept since the last take.
 */
async function startRecorder(target: string) {
  const upstream = new URL(target);
  let kept: Exchange[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const forward = httpRequest(
        {
          hostname: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: upstream.host },
        },
        (answer) => {
          const back: Buffer[] = [];
          answer.on('data', (d: Buffer) => back.push(d));
          answer.on('end', () => {
            const text = Buffer.concat(back);
            if (req.method === 'POST' && req.url?.endsWith('/chat/completions'))
              kept.push({
                body: JSON.parse(raw.toString('utf8')) as Body,
                reply: JSON.parse(text.toString('utf8')) as Reply,
              });
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(text);
          });
        },
      );
      forward.on('error', (e) => res.destroy(e));
      forward.end(raw);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    take(): Exchange[] {
      const taken = kept;
      kept = [];
      return taken;
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

let sim: Awaited<ReturnType<typeof startSim>>;
let proxy: Awaited<ReturnType<typeof startRecorder>>;
beforeAll(async () => {
  sim = await startSim();
  proxy = await startRecorder(sim.url);
});
afterAll(async () => {
  await proxy.close();
  await sim.stop();
});

const BASE = { router: '/api/v1', direct: '/v1' } as const;
type Platform = keyof typeof BASE;
const ROUTER_MODEL = 'openai/gpt-4o-mini';
const DIRECT_MODEL = 'kimi-k2-0905-preview';
const resultText = (flow: Flow, tool: string) => JSON.stringify(flow.results[tool]);

/**
 * What driftcheck asks for beyond the conversation, which the SDK-driven applications below
 * ask for too, so that the bodies compare whole: the max_tokens the service kind's calls use
 * (driftcheck's default) and, on the router, `provider.require_parameters` (driftcheck sets it
 * on a request with tools, so that the router routes only to providers that honour them).
 */
const EXTRA = {
  router: { max_tokens: 512, provider: { require_parameters: true } },
  direct: { max_tokens: 1024 },
} as const;

/** driftcheck's run of the conversation: what it sent and was answered, and the sample it journaled. */
async function viaDriftcheck(flow: Flow, platform: Platform, model: string) {
  const tools = flow.tools.map((t) => ({ type: 'function', function: t }));
  const results = Object.entries(flow.results).map(
    ([tool, r]) => `  ${tool}: { result: ${JSON.stringify(r)} }`,
  );
  const project = await makeProject({
    'driftcheck.config.yaml': [
      'services:',
      `  router: { kind: router, base_url: ${proxy.url}/api/v1, api_key_env: OPENROUTER_API_KEY, retries: 0 }`,
      `  direct: { kind: direct, base_url: ${proxy.url}/v1, api_key_env: DIRECT_API_KEY, retries: 0 }`,
      '',
    ].join('\n'),
    'suites/agent.yaml': [
      'suite: agent',
      `service: ${platform}`,
      `model: ${model}`,
      `params: { tools: ${JSON.stringify(tools)} }`,
      'tool_results:',
      ...results,
      'cases:',
      '  - id: flow',
      `    prompt: ${JSON.stringify(flow.prompt)}`,
      '',
    ].join('\n'),
  });
  try {
    proxy.take();
    const run = await runMain(['run', 'suites/agent.yaml', '--reporter', 'json'], {
      cwd: project.dir,
      env: ENV,
    });
    const sent = proxy.take();
    expect(run.code, run.stderr).toBe(0);
    const samples = await readSamples(runDirFrom(run, project.dir));
    expect(samples).toHaveLength(1);
    return { sent, sample: samples[0]! };
  } finally {
    await project.cleanup();
  }
}

/** The openai SDK's tool runner on the same conversation: the exchanges, the calls its tools got, its answer. */
async function viaOpenAI(flow: Flow, platform: Platform, model: string) {
  const client = new OpenAI({
    apiKey: platform === 'router' ? ROUTER_KEY : DIRECT_KEY,
    baseURL: `${proxy.url}${BASE[platform]}`,
    maxRetries: 0,
  });
  const called: { tool: string; arguments: string }[] = [];
  proxy.take();
  const runner = client.chat.completions.runTools({
    model,
    messages: [{ role: 'user', content: flow.prompt }],
    tools: flow.tools.map((t) => ({
      type: 'function' as const,
      function: {
        ...t,
        parameters: t.parameters as Record<string, unknown>,
        function: (args: string) => {
          called.push({ tool: t.name, arguments: args });
          return flow.results[t.name]!;
        },
      },
    })),
    ...EXTRA[platform],
  });
  const content = await runner.finalContent();
  return { sent: proxy.take(), called, content };
}

/**
 * @openrouter/sdk on the same conversation. Its own tool runner (`callModel`) speaks the
 * Responses API, not chat completions, so the loop is the one an application writes around
 * `chat.send`: the assistant message pushed back as the SDK parsed it, one tool message per
 * call in call order, until a text answer.
 */
async function viaOpenRouter(flow: Flow, model: string) {
  const client = new OpenRouter({
    apiKey: ROUTER_KEY,
    serverURL: `${proxy.url}/api/v1`,
    retryConfig: { strategy: 'none' },
  });
  const tools = flow.tools.map((t) => ({
    type: 'function' as const,
    function: { ...t, parameters: t.parameters as Record<string, unknown> },
  }));
  const messages: ChatMessages[] = [{ role: 'user', content: flow.prompt }];
  const called: { tool: string; arguments: string }[] = [];
  proxy.take();
  for (let step = 0; step < 8; step++) {
    const r = (await client.chat.send({
      chatRequest: { model, messages, tools, maxTokens: 512, provider: { requireParameters: true } },
    })) as ChatResult;
    const message = r.choices[0]!.message;
    messages.push({ ...message, role: 'assistant' });
    if (!message.toolCalls?.length) {
      // A text answer is a string (the simulator sends no content parts); anything else fails below.
      const content = typeof message.content === 'string' ? message.content : JSON.stringify(message.content);
      return { sent: proxy.take(), called, content };
    }
    for (const call of message.toolCalls) {
      called.push({ tool: call.function.name, arguments: call.function.arguments });
      messages.push({ role: 'tool', toolCallId: call.id, content: resultText(flow, call.function.name) });
    }
  }
  throw new Error('the OpenRouter SDK loop did not end in 8 steps');
}

/**
 * The requests of a conversation, normalized only where the drivers legitimately differ:
 *
 * - A tool call's id is the simulator's, a counter over everything it served, so the same
 *   call has another id in each driver's run. Each id in a request becomes `<reply k, call i>`,
 *   naming the answer that issued it; an id no answer issued stays as it is (and differs).
 * - `refusal: null` on an assistant turn is the absence of one: the OpenRouter SDK loop sends
 *   the message back as the SDK parsed it, null fields included.
 * - Key order inside JSON objects does not count (toEqual).
 *
 * Everything else of the body is kept: `rest` holds the fields beside model, messages and tools.
 */
function transcript(sent: Exchange[]) {
  const issued = new Map<string, string>();
  sent.forEach((x, k) =>
    (x.reply.choices?.[0]?.message?.tool_calls ?? []).forEach((c, i) =>
      issued.set(c.id, `<reply ${k}, call ${i}>`),
    ),
  );
  const id = (v: unknown) => (typeof v === 'string' ? (issued.get(v) ?? v) : v);
  return sent.map(({ body }) => {
    const { model, messages, tools, ...rest } = body;
    return {
      model,
      tools,
      rest,
      messages: messages.map((m) => {
        const out: Record<string, unknown> = { ...m };
        if (out.refusal === null) delete out.refusal;
        if ('tool_call_id' in out) out.tool_call_id = id(out.tool_call_id);
        if (Array.isArray(out.tool_calls))
          out.tool_calls = (out.tool_calls as { id: unknown }[]).map((c) => ({ ...c, id: id(c.id) }));
        return out;
      }),
    };
  });
}

/** The trajectory a referee's loop went through: the calls its answers made, each with the result given. */
function trajectoryOf(sent: Exchange[], flow: Flow) {
  return sent.flatMap((x, k) =>
    (
      (x.reply.choices?.[0]?.message?.tool_calls ?? []) as unknown as {
        function: { name: string; arguments: string };
      }[]
    ).map((c) => ({
      step: k + 1,
      tool: c.function.name,
      arguments: c.function.arguments,
      result: resultText(flow, c.function.name),
    })),
  );
}

/** The SDK's own fields: `stream: false` and the runner's `tool_choice: 'auto'` are the API's defaults. */
const withoutDefaults = (rest: Record<string, unknown>) => {
  const { stream, tool_choice, ...others } = rest;
  expect(stream).toBe(false);
  expect(tool_choice ?? 'auto').toBe('auto');
  return others;
};

describe("driftcheck's tool loop, refereed by the SDKs' loops against the simulator", () => {
  const cases = [
    ['order', 'router', ROUTER_MODEL],
    ['order', 'direct', DIRECT_MODEL],
    ['parallel', 'router', ROUTER_MODEL],
    ['parallel', 'direct', DIRECT_MODEL],
  ] as const;
  it.each(cases)(
    '%s flow on the %s service: the same requests, request by request',
    async (name, platform, model) => {
      const flow = FLOWS[name]!;
      const ours = await viaDriftcheck(flow, platform, model);
      const referees = [{ by: 'openai runTools', ...(await viaOpenAI(flow, platform, model)) }];
      if (platform === 'router')
        referees.push({ by: '@openrouter/sdk chat.send', ...(await viaOpenRouter(flow, model)) });

      const mine = transcript(ours.sent);
      expect(mine).toHaveLength(flow.requests);
      // Every id driftcheck sent back is one the service issued (the transcript names it by its reply).
      for (const m of mine.flatMap((r) => r.messages))
        for (const v of [
          m.tool_call_id,
          ...((m.tool_calls as { id: string }[] | undefined) ?? []).map((c) => c.id),
        ])
          if (v !== undefined) expect(v).toMatch(/^<reply \d+, call \d+>$/);
      mine.forEach((r) => expect(r.rest).toEqual(EXTRA[platform]));

      for (const referee of referees) {
        const theirs = transcript(referee.sent);
        expect(theirs.length, referee.by).toBe(mine.length);
        theirs.forEach((r, i) => {
          expect(r.messages, `${referee.by}, request ${i + 1}`).toEqual(mine[i]!.messages);
          expect(r.model, `${referee.by}, request ${i + 1}`).toBe(mine[i]!.model);
          expect(r.tools, `${referee.by}, request ${i + 1}`).toEqual(mine[i]!.tools);
          expect(withoutDefaults(r.rest), `${referee.by}, request ${i + 1}`).toEqual(mine[i]!.rest);
        });
        // What driftcheck journaled is what the referee's loop went through and ended with.
        const trajectory = trajectoryOf(referee.sent, flow);
        expect(ours.sample.trajectory?.calls, referee.by).toEqual(trajectory);
        expect(referee.called, referee.by).toEqual(
          trajectory.map((t) => ({ tool: t.tool, arguments: t.arguments })),
        );
        expect(ours.sample.content, referee.by).toBe(referee.content);
      }
      expect(ours.sample.status).toBe('pass');
      expect(ours.sample.steps).toHaveLength(flow.requests);
      // The flows are what they claim: the order flow chains two steps, the parallel one calls twice at once.
      const tools = ours.sample.trajectory!.calls.map((t) => `${t.step}:${t.tool}`);
      expect(tools).toEqual(
        name === 'order' ? ['1:lookup_order', '2:check_policy'] : ['1:search_docs', '1:get_weather'],
      );
    },
  );
});

// A reasoning model's assistant turns are where the three loops part, each as its code says:
// driftcheck sends `reasoning_details` back (the router's docs require it for reasoning
// models to continue) and not the `reasoning` text; the openai SDK's runner (v6) replays only
// the request fields it knows (toRequestMessage) and drops both; the OpenRouter SDK loop sends
// the parsed message back whole, the `reasoning` text too. With those fields set aside the
// requests are the same. That is why the flows above use models that do not reason.
describe('a reasoning model (moonshotai/kimi-k2-thinking on the router)', () => {
  it('driftcheck sends reasoning_details back as received; the referees differ only there, as their code says', async () => {
    const flow = FLOWS.order!;
    const model = 'moonshotai/kimi-k2-thinking';
    const ours = await viaDriftcheck(flow, 'router', model);
    const openai = await viaOpenAI(flow, 'router', model);
    const openrouter = await viaOpenRouter(flow, model);
    const mine = transcript(ours.sent);
    expect(mine).toHaveLength(flow.requests);

    // driftcheck: each assistant turn carries the reasoning_details of the answer it came from, no reasoning text.
    const turns = mine.flatMap((r) => r.messages.filter((m) => m.role === 'assistant'));
    const sentDetails = (x: Exchange) =>
      (x.reply.choices![0]!.message as { reasoning_details?: unknown }).reasoning_details;
    expect(turns.at(-1)!.reasoning_details).toEqual(sentDetails(ours.sent[1]!));
    expect(sentDetails(ours.sent[1]!)).toEqual([expect.objectContaining({ type: 'reasoning.text' })]);
    for (const t of turns) expect(t).not.toHaveProperty('reasoning');

    const without = (r: ReturnType<typeof transcript>, field: string) =>
      r.map((x) =>
        x.messages.map((m) => {
          const { [field]: dropped, ...kept } = m;
          if (m.role === 'assistant' && m.tool_calls) expect(dropped, field).toBeDefined();
          return kept;
        }),
      );
    // The openai runner sends no reasoning_details back …
    const theirs = transcript(openai.sent);
    expect(theirs.flatMap((r) => r.messages).some((m) => 'reasoning_details' in m)).toBe(false);
    expect(theirs.map((r) => r.messages)).toEqual(without(mine, 'reasoning_details'));
    // … the OpenRouter SDK loop sends the same reasoning_details, and the reasoning text besides.
    expect(without(transcript(openrouter.sent), 'reasoning')).toEqual(mine.map((r) => r.messages));
    expect(ours.sample.content).toBe(openai.content);
    expect(ours.sample.content).toBe(openrouter.content);
  });
});
