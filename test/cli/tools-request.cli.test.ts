import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, readReport, runDirFrom } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';
import { reportSchemaErrors } from '../helpers/report-schema.js';
import { startToolServer, TOOL_ENV, toolConfig, WEATHER_TOOLS } from '../helpers/tool-server.js';

let server: Awaited<ReturnType<typeof startToolServer>>;
beforeAll(async () => {
  server = await startToolServer((prompt) =>
    prompt.startsWith('Weather')
      ? { calls: [{ name: 'get_weather', arguments: '{"city":"Paris"}' }] }
      : { text: '{"order_id":"A1"}' },
  );
});
afterAll(() => server.close());

const toolSuite = (service: string, extra: string[] = []) =>
  [
    `suite: ${service}-tools`,
    `service: ${service}`,
    'model: openai/gpt-4o-mini',
    'params:',
    '  temperature: 0',
    '  tools:',
    ...WEATHER_TOOLS,
    '  tool_choice: required',
    '  parallel_tool_calls: false',
    ...extra,
    'cases:',
    '  - id: weather',
    '    prompt: Weather in Paris?',
    '    expect: [{ tool_call: { name: get_weather, arguments: { city: Paris } } }]',
    '  - id: structured',
    '    prompt: Order as JSON',
    '    params:',
    '      tool_choice: none',
    '      response_format:',
    '        type: json_schema',
    '        json_schema:',
    '          name: order',
    '          strict: true',
    '          schema: { type: object, required: [order_id], properties: { order_id: { type: string } } }',
    '    expect: [{ json_schema: { type: object, required: [order_id] } }, { no_tool_call: true }]',
    '  - id: after-the-tool',
    '    messages:',
    '      - { role: user, content: "Weather in Rome?" }',
    '      - role: assistant',
    '        content: null',
    '        tool_calls: [{ id: call_1, type: function, function: { name: get_weather, arguments: \'{"city":"Rome"}\' } }]',
    '      - { role: tool, tool_call_id: call_1, content: "18 C, sunny" }',
    '      - { role: user, content: "And tomorrow?" }',
    '    params: { tool_choice: auto }',
    '',
  ].join('\n');

describe('requests with tools and structured outputs', () => {
  it('sends tools, tool_choice, parallel_tool_calls, response_format and tool turns as written; the router requires its parameters, the direct service is not told', async () => {
    const project = await makeProject({
      'driftcheck.config.yaml': toolConfig(server.url),
      'suites/router.yaml': toolSuite('router'),
      'suites/direct.yaml': toolSuite('direct'),
      'suites/own.yaml': toolSuite('router', ['  provider: { require_parameters: false }']).replace(
        'suite: router-tools',
        'suite: own-choice',
      ),
    });
    try {
      server.bodies.length = 0;
      const run = await runMain(['run'], { cwd: project.dir, env: TOOL_ENV });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      const report = await readReport(runDirFrom(run, project.dir));
      expect(reportSchemaErrors(report)).toEqual([]);
      const routerBodies = server.bodies.filter(
        (b) => (b.provider as { require_parameters?: boolean })?.require_parameters === true,
      );
      const ownBodies = server.bodies.filter(
        (b) => (b.provider as { require_parameters?: boolean })?.require_parameters === false,
      );
      const directBodies = server.bodies.filter((b) => !('provider' in b));
      // 3 cases in each of the three suites.
      expect([routerBodies.length, ownBodies.length, directBodies.length]).toEqual([3, 3, 3]);
      for (const bodies of [routerBodies, ownBodies, directBodies]) {
        const weather = bodies.find((b) => JSON.stringify(b.messages).includes('Weather in Paris?'))!;
        expect(weather.tools).toEqual([
          {
            type: 'function',
            function: {
              name: 'get_weather',
              description: 'Current weather in a city',
              parameters: {
                type: 'object',
                required: ['city'],
                properties: { city: { type: 'string' }, units: { enum: ['celsius', 'fahrenheit'] } },
              },
            },
          },
          {
            type: 'function',
            function: {
              name: 'get_time',
              parameters: { type: 'object', properties: { zone: { type: 'string' } } },
            },
          },
        ]);
        expect(weather).toMatchObject({
          tool_choice: 'required',
          parallel_tool_calls: false,
          temperature: 0,
        });
        const structured = bodies.find((b) => JSON.stringify(b.messages).includes('Order as JSON'))!;
        expect(structured.tool_choice).toBe('none');
        expect(structured.response_format).toEqual({
          type: 'json_schema',
          json_schema: {
            name: 'order',
            strict: true,
            schema: { type: 'object', required: ['order_id'], properties: { order_id: { type: 'string' } } },
          },
        });
        const after = bodies.find((b) => JSON.stringify(b.messages).includes('And tomorrow?'))!;
        expect(after.messages).toEqual([
          { role: 'user', content: 'Weather in Rome?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_1',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Rome"}' },
              },
            ],
          },
          { role: 'tool', tool_call_id: 'call_1', content: '18 C, sunny' },
          { role: 'user', content: 'And tomorrow?' },
        ]);
      }
      // The router's own preferences are kept beside the requirement it adds.
      expect(routerBodies[0]!.provider).toEqual({ require_parameters: true });
      // A structured-output answer is checked by json_schema as content is.
      const structured = report.cases.find((c) => c.id === 'router-tools/structured')!;
      expect(structured.status).toBe('pass');
      expect(structured.checks.map((c) => c.type)).toEqual(['json_schema', 'no_tool_call']);
    } finally {
      await project.cleanup();
    }
  });

  it('refuses, before anything is sent, duplicate tool names, schemas that do not compile and a tool_choice naming an undeclared tool, each at file:line:col', async () => {
    const project = await makeProject({
      'driftcheck.config.yaml': toolConfig(server.url),
      'suites/bad.yaml': [
        'suite: bad', //                                    1
        'service: router', //                               2
        'model: openai/gpt-4o-mini', //                     3
        'params:', //                                       4
        '  tools:', //                                      5
        '    - { type: function, function: { name: lookup } }', // 6
        '    - { type: function, function: { name: lookup } }', // 7
        '  tool_choice: { type: function, function: { name: look_up } }', // 8
        'cases:', //                                        9
        '  - id: a', //                                     10
        '    prompt: hi', //                                11
        '    params:', //                                   12
        '      response_format:', //                        13
        '        type: json_schema', //                     14
        '        json_schema:', //                          15
        '          name: out', //                           16
        '          schema: { type: object, properties: { n: { type: integr } } }', // 17
        '',
      ].join('\n'),
    });
    try {
      server.bodies.length = 0;
      const validate = await runMain(['validate'], { cwd: project.dir, env: TOOL_ENV });
      expect(validate.code).toBe(2);
      expect(validate.stderr).toMatch(/suites\/bad\.yaml:7:\d+: .*declares the tool 'lookup' again/);
      expect(validate.stderr).toMatch(
        /suites\/bad\.yaml:8:\d+: tool_choice names the tool 'look_up', which the suite does not declare \(declared: lookup\)/,
      );
      expect(validate.stderr).toMatch(
        /suites\/bad\.yaml:17:\d+: 'cases\[0\]\.params\.response_format\.json_schema\.schema' is not a JSON Schema that compiles/,
      );
      // A run refuses the same suite without sending anything.
      const run = await runMain(['run'], { cwd: project.dir, env: TOOL_ENV });
      expect(run.code).toBe(2);
      expect(server.bodies).toHaveLength(0);
    } finally {
      await project.cleanup();
    }
  });

  it('checks a tools file the suite names at its own lines, then a tool_choice against its tools', async () => {
    const project = await makeProject({
      'driftcheck.config.yaml': toolConfig(server.url),
      'suites/file.yaml': [
        'suite: file',
        'service: router',
        'model: openai/gpt-4o-mini',
        'params: { tools: ../tools/weather.yaml }',
        'cases:',
        '  - id: b',
        '    prompt: hi',
        '    params: { tool_choice: { type: function, function: { name: get_wether } } }',
        '  - id: c',
        '    prompt: hi',
        '    params: { tools: tools.json }',
        '',
      ].join('\n'),
      'tools/weather.yaml':
        'tools:\n  - type: function\n    function: { name: get_weather, parameters: { type: object } }\n',
      'suites/tools.json': [
        '{',
        '  "tools": [',
        '    { "type": "function", "function": { "name": "get_weather", "parameters": { "type": "object" } } },',
        '    { "type": "function", "function": { "name": "get_time", "parameters": { "type": "object", "required": "zone" } } }',
        '  ]',
        '}',
        '',
      ].join('\n'),
    });
    try {
      const first = await runMain(['validate'], { cwd: project.dir, env: TOOL_ENV });
      expect(first.code).toBe(2);
      // The tools file is checked in its own right, at its own lines.
      expect(first.stderr).toMatch(
        /suites\/tools\.json:4:\d+: 'tools\[1\]\.function\.parameters' is not a JSON Schema that compiles/,
      );
      await writeFile(
        join(project.dir, 'suites/tools.json'),
        '{ "tools": [{ "type": "function", "function": { "name": "get_time" } }] }\n',
      );
      const validate = await runMain(['validate'], { cwd: project.dir, env: TOOL_ENV });
      expect(validate.code).toBe(2);
      expect(validate.stderr).toMatch(
        /suites\/file\.yaml:8:\d+: tool_choice names the tool 'get_wether', which 'cases\[0\]\.params' does not declare \(declared: get_weather\)/,
      );
      // Fixed, the request carries the file's tools, not its path.
      const fixed = (await readFile(join(project.dir, 'suites/file.yaml'), 'utf8')).replace(
        'get_wether',
        'get_weather',
      );
      await writeFile(join(project.dir, 'suites/file.yaml'), fixed);
      server.bodies.length = 0;
      const run = await runMain(['run'], { cwd: project.dir, env: TOOL_ENV });
      expect(run.code, run.stderr).toBe(0);
      const tools = server.bodies.map((b) => b.tools);
      expect(tools).toEqual([
        [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }],
        [{ type: 'function', function: { name: 'get_time' } }],
      ]);
    } finally {
      await project.cleanup();
    }
  });

  it("a case's tools: [] or null drops the suite's tools, tool_choice and parallel_tool_calls from its request; a choice of its own without tools is refused", async () => {
    const project = await makeProject({
      'driftcheck.config.yaml': toolConfig(server.url),
      'suites/drop.yaml': [
        'suite: drop',
        'service: router',
        'model: openai/gpt-4o-mini',
        'params:',
        '  tools:',
        ...WEATHER_TOOLS,
        '  tool_choice: required',
        '  parallel_tool_calls: false',
        'cases:',
        '  - id: with-tools',
        '    prompt: Weather in Paris?',
        '  - id: empty-list',
        '    prompt: Order as JSON, no tools',
        '    params: { tools: [] }',
        '    expect: [{ no_tool_call: true }]',
        '  - id: null-tools',
        '    prompt: Order as JSON, null tools',
        '    params: { tools: null, temperature: 0 }',
        '  - id: own-choice',
        '    prompt: Order as JSON, own choice',
        '    params: { tools: [], tool_choice: required }',
        '',
      ].join('\n'),
    });
    try {
      // A choice of its own without tools is refused, as a suite's would be.
      const refused = await runMain(['validate'], { cwd: project.dir });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toBe(
        "driftcheck validate: suites/drop.yaml:34:39: tool_choice is required, but 'cases[3].params' declares no tools\n  → add params.tools, or drop tool_choice\n",
      );
      const path = join(project.dir, 'suites/drop.yaml');
      await writeFile(path, (await readFile(path, 'utf8')).replace(', tool_choice: required }', ' }'));
      server.bodies.length = 0;
      const run = await runMain(['run', '--reporter', 'json'], { cwd: project.dir, env: TOOL_ENV });
      expect(run.code, run.stderr).toBe(0);
      const body = (prompt: string) =>
        server.bodies.find((b) => JSON.stringify(b.messages).includes(prompt))!;
      expect(body('Weather in Paris?')).toMatchObject({
        tool_choice: 'required',
        parallel_tool_calls: false,
      });
      expect(body('Weather in Paris?').tools).toHaveLength(2);
      for (const prompt of ['no tools', 'null tools', 'own choice']) {
        const sent = body(prompt);
        expect(sent, prompt).not.toHaveProperty('tools');
        expect(sent, prompt).not.toHaveProperty('tool_choice');
        expect(sent, prompt).not.toHaveProperty('parallel_tool_calls');
        // Nor does the router ask for providers that support tools it does not send.
        expect(sent.provider, prompt).toBeUndefined();
      }
      expect(body('null tools').temperature).toBe(0);
    } finally {
      await project.cleanup();
    }
  });
});
