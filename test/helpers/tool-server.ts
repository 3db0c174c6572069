import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { makeProject } from './cli.js';

/**
 * One scripted answer: tool calls (arguments as the JSON text to send, valid or not), text,
 * or an HTTP error status (sent with `Retry-After: 0`, so a retry goes at once).
 */
export type Scripted = (
  { calls: { name: string; arguments: string }[] } | { text: string } | { status: number }
) & {
  /** `usage.cost` the answer reports (none when absent). */
  cost?: number;
  /** A reasoning model's `message.reasoning` and `message.reasoning_details`, as the router sends them. */
  reasoning?: string;
  reasoning_details?: unknown[];
};

/** A scripted answer that calls one tool with these arguments (sent as their JSON). */
export const callOf = (name: string, args: unknown): Scripted => ({
  calls: [{ name, arguments: JSON.stringify(args) }],
});

/** A request's messages as the tool server hands them to a script. */
export type SentMessage = {
  role: string;
  content: string | null;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
};

/**
 * How a test scripts the server: the answer to the `n`th request (from 0) whose last user
 * message is `prompt`, given the request's messages too; a promise holds it back.
 */
type Script = (prompt: string, n: number, messages: readonly SentMessage[]) => Scripted | Promise<Scripted>;

/**
 * A loopback chat-completion service for tool tests: it answers each request by the text of
 * its last user message, from a script the test changes between runs (`answer(prompt, n,
 * messages)`, n counting that prompt's requests from 0, messages the request's; a promise
 * answers when it settles), and keeps every request body it received. `GET …/models` lists no
 * model (a capped run reads it). A call it scripts has the id `call_<n>_<i>`, so a later
 * step of the same conversation can tell which first request began it.
 */
export async function startToolServer(answer: Script) {
  const bodies: Record<string, unknown>[] = [];
  const seen = new Map<string, number>();
  let script = answer;
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (d: Buffer) => (text += d));
    req.on('end', async () => {
      if (req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"data":[]}');
        return;
      }
      const body = JSON.parse(text) as {
        model: string;
        messages: SentMessage[];
      };
      bodies.push(body);
      const prompt = [...body.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
      const n = seen.get(prompt) ?? 0;
      seen.set(prompt, n + 1);
      const said = await script(prompt, n, body.messages);
      if ('status' in said) {
        res.writeHead(said.status, { 'content-type': 'application/json', 'retry-after': '0' });
        res.end(JSON.stringify({ error: { message: 'scripted failure', code: said.status } }));
        return;
      }
      const message =
        'calls' in said
          ? {
              role: 'assistant',
              content: null,
              tool_calls: said.calls.map((c, i) => ({
                id: `call_${n}_${i}`,
                type: 'function',
                function: { name: c.name, arguments: c.arguments },
              })),
            }
          : { role: 'assistant', content: said.text };
      if (said.reasoning !== undefined) Object.assign(message, { reasoning: said.reasoning });
      if (said.reasoning_details !== undefined)
        Object.assign(message, { reasoning_details: said.reasoning_details });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: `gen-${bodies.length}`,
          object: 'chat.completion',
          model: body.model,
          choices: [{ index: 0, message, finish_reason: 'calls' in said ? 'tool_calls' : 'stop' }],
          usage: {
            prompt_tokens: 20,
            completion_tokens: 10,
            total_tokens: 30,
            ...(said.cost !== undefined ? { cost: said.cost } : {}),
          },
        }),
      );
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bodies,
    /** Answers from now on with another script (the counts per prompt start again). */
    rescript(next: Script) {
      script = next;
      seen.clear();
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

export const TOOL_ENV = {
  OPENROUTER_API_KEY: `sk-or-v1-${'ab12'.repeat(12)}`,
  DIRECT_API_KEY: `sk-${'cd34'.repeat(12)}`,
};

/** The support agent's tools the tool-loop tests declare: each one's properties and the one it requires, if any. */
const AGENT_TOOLS = {
  lookup_order: { properties: '{ order: { type: string } }', required: 'order' },
  check_policy: { properties: '{ sku: { type: string } }', required: 'sku' },
  escalate: { properties: '{}', required: undefined },
};
type AgentTool = keyof typeof AGENT_TOOLS;

const paramsOf = (required: boolean, tools: AgentTool[]) =>
  `params:\n  tools:\n${tools
    .map((name) => {
      const { properties, required: arg } = AGENT_TOOLS[name];
      const needs = required && arg ? `required: [${arg}], ` : '';
      return `    - type: function\n      function: { name: ${name}, parameters: { type: object, ${needs}properties: ${properties} } }\n`;
    })
    .join('')}`;

/** A suite's `params:` block declaring these support-agent tools (YAML, as a suite writes it). */
const agentParams = (...tools: AgentTool[]) => paramsOf(false, tools);

/** The same block with each tool's argument required (lookup_order's order, check_policy's sku). */
export const strictAgentParams = (...tools: AgentTool[]) => paramsOf(true, tools);

/** A suite's head: `suite: <name>` on the router's openai/gpt-4o-mini, declaring these support-agent tools. */
export const agentSuite = (name: string, ...tools: AgentTool[]) =>
  `suite: ${name}\nservice: router\nmodel: openai/gpt-4o-mini\n${agentParams(...tools)}`;

/** A config with a router and a direct service on the loopback server, no retries (or `retries`). */
export const toolConfig = (url: string, retries = 0) =>
  `services:\n  router: { kind: router, base_url: ${url}/api/v1, api_key_env: OPENROUTER_API_KEY, retries: ${retries} }\n  direct: { kind: direct, base_url: ${url}/v1, api_key_env: DIRECT_API_KEY, retries: ${retries} }\n`;

/** get_weather (city required, units an enum) and get_time, as a suite declares them. */
export const WEATHER_TOOLS = [
  '      - type: function',
  '        function:',
  '          name: get_weather',
  '          description: Current weather in a city',
  '          parameters:',
  '            type: object',
  '            required: [city]',
  '            properties:',
  '              city: { type: string }',
  '              units: { enum: [celsius, fahrenheit] }',
  '      - type: function',
  '        function:',
  '          name: get_time',
  '          parameters: { type: object, properties: { zone: { type: string } } }',
];

/** A tool server (startToolServer's) and a project folder (makeProject's). */
export interface ToolProject {
  server: Awaited<ReturnType<typeof startToolServer>>;
  project: Awaited<ReturnType<typeof makeProject>>;
}

/**
 * For the tests of the file (or of the describe it is called in): before them, a tool server
 * answering from `script` and a project of `files` with its toolConfig (`retries`, 0 unless
 * told); after them, both closed. Its fields are set once the tests start.
 */
export function useToolProject(script: Script, files: Record<string, string>, retries = 0): ToolProject {
  const fixture = {} as ToolProject;
  beforeAll(async () => {
    fixture.server = await startToolServer(script);
    fixture.project = await makeProject({
      'driftcheck.config.yaml': toolConfig(fixture.server.url, retries),
      ...files,
    });
  });
  afterAll(async () => {
    await fixture.server?.close();
    await fixture.project?.cleanup();
  });
  return fixture;
}
