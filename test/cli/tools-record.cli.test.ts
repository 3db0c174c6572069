import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolUse } from '../../src/record/tool-use.js';
import { makeProject, readReport, readSamples, runDirFrom } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';
import { reportSchemaErrors } from '../helpers/report-schema.js';
import {
  type Scripted,
  startToolServer,
  TOOL_ENV,
  toolConfig,
  WEATHER_TOOLS,
} from '../helpers/tool-server.js';

/** What the loopback model answers tonight, by prompt. */
const ANSWERS: Record<string, Scripted> = {
  'Three calls': {
    calls: [
      { name: 'get_weather', arguments: '{"city": "Paris"' },
      { name: 'get_forecast', arguments: '{"city":"Paris"}' },
      { name: 'get_weather', arguments: '{"city":7}' },
    ],
  },
  Weather: {
    calls: [{ name: 'get_weather', arguments: '{"city":"Paris","units":"celsius","request_id":"r-91"}' }],
  },
  Parallel: {
    calls: [
      { name: 'get_weather', arguments: '{"city":"Paris"}' },
      { name: 'get_weather', arguments: '{"city":"Rome"}' },
      { name: 'get_time', arguments: '{"zone":"CET"}' },
    ],
  },
  Chat: { text: 'Hello there.' },
};

let server: Awaited<ReturnType<typeof startToolServer>>;
let project: Awaited<ReturnType<typeof makeProject>>;
let run: { code: number | null; dir: string; stdout: string };

const cases = [
  '  - id: three-calls',
  '    prompt: Three calls',
  '    expect: [{ tool_calls_valid: true }]',
  '  - id: weather',
  '    prompt: Weather',
  '    expect:',
  '      - tool_call: get_weather',
  '      - tool_call: { name: get_weather, arguments: { city: Paris } }',
  '      - tool_call: { name: get_weather, arguments: { city: Paris, units: celsius }, match: exact, ignore: [$.request_id] }',
  '      - tool_call: { name: get_weather, arguments: { city: Paris, units: celsius }, match: exact }',
  '      - tool_call: { name: get_weather, arguments: { city: Rome } }',
  '      - tool_call: { name: get_weather, schema: { type: object, required: [city, units] } }',
  '      - tool_call: { name: get_weather, schema: { type: object, required: [country] } }',
  '      - tool_calls_valid: true',
  '      - no_tool_call: get_time',
  '      - no_tool_call: true',
  '  - id: parallel',
  '    prompt: Parallel',
  '    expect:',
  '      - tool_call: { name: get_weather, count: 2 }',
  '      - tool_call: { count: 3, calls: [{ name: get_time }, { name: get_weather, arguments: { city: Rome } }, { name: get_weather }] }',
  '      - tool_call: { order: strict, calls: [{ name: get_weather, arguments: { city: Paris } }, { name: get_weather, arguments: { city: Rome } }, { name: get_time }] }',
  '      - tool_call: { order: strict, calls: [{ name: get_time }, { name: get_weather }, { name: get_weather }] }',
  '      - tool_call: { name: get_weather, count: 1 }',
  '  - id: chat',
  '    prompt: Chat',
  '    expect: [{ no_tool_call: true }, { tool_call: get_weather }, { tool_calls_valid: true }]',
];

beforeAll(async () => {
  server = await startToolServer((prompt) => ANSWERS[prompt]!);
  project = await makeProject({
    'driftcheck.config.yaml': toolConfig(server.url),
    'suites/tools.yaml': [
      'suite: tools',
      'service: router',
      'model: openai/gpt-4o-mini',
      'params:',
      '  tools:',
      ...WEATHER_TOOLS,
      'cases:',
      ...cases,
      '',
    ].join('\n'),
  });
  const r = await runMain(['run'], { cwd: project.dir, env: TOOL_ENV });
  run = { code: r.code, stdout: r.stdout, dir: runDirFrom(r, project.dir) };
});
afterAll(async () => {
  await project.cleanup();
  await server.close();
});

describe('tool calls recorded and checked', () => {
  it('keeps each call with its raw and parsed arguments and its validity, classified as the router does', async () => {
    const samples = await readSamples(run.dir);
    const three = samples.find((s) => s.case === 'three-calls')!;
    expect(three.content).toBeNull();
    expect(three.finish_reason).toBe('tool_calls');
    expect(three.tool_calls).toEqual([
      {
        id: 'call_0_0',
        name: 'get_weather',
        arguments: '{"city": "Paris"',
        parsed: null,
        valid: false,
        invalid: 'invalid_json',
        problem: 'the arguments are not JSON',
      },
      expect.objectContaining({
        name: 'get_forecast',
        parsed: { city: 'Paris' },
        valid: false,
        invalid: 'unknown_tool',
      }),
      expect.objectContaining({
        name: 'get_weather',
        parsed: { city: 7 },
        valid: false,
        invalid: 'schema_mismatch',
        problem: '/city must be string',
      }),
    ]);
    // A text answer to a request with tools records that it made no call; the journal says so.
    expect(samples.find((s) => s.case === 'chat')!.tool_calls).toEqual([]);
  });

  it('aggregates a case entry: trigger rate, valid-call rate and distinct calls, and report.json validates', async () => {
    const report = await readReport(run.dir);
    expect(reportSchemaErrors(report)).toEqual([]);
    const use = (id: string) => report.cases.find((c) => c.case === id)!.tool_use as ToolUse;
    expect(use('three-calls')).toMatchObject({
      answered: 1,
      triggered: 1,
      valid: 0,
      trigger_rate: 1,
      valid_rate: 0,
    });
    expect(use('three-calls').distinct).toHaveLength(3);
    expect(use('chat')).toMatchObject({
      answered: 1,
      triggered: 0,
      valid: 0,
      trigger_rate: 0,
      valid_rate: null,
      first: [],
    });
    expect(use('parallel').distinct.map((d) => [d.name, d.arguments, d.count])).toEqual([
      ['get_weather', { city: 'Paris' }, 1],
      ['get_weather', { city: 'Rome' }, 1],
      ['get_time', { zone: 'CET' }, 1],
    ]);
  });

  it('checks tool_call (name, partial, exact with ignored paths, schema, count and order), no_tool_call and tool_calls_valid', async () => {
    const report = await readReport(run.dir);
    const checks = (id: string) =>
      report.cases.find((c) => c.case === id)!.checks.map((c) => [c.type, c.pass]);
    expect(checks('three-calls')).toEqual([['tool_calls_valid', false]]);
    expect(checks('weather')).toEqual([
      ['tool_call', true],
      ['tool_call', true], // partial: the other arguments are allowed
      ['tool_call', true], // exact, request_id ignored
      ['tool_call', false], // exact: request_id is one argument too many
      ['tool_call', false],
      ['tool_call', true],
      ['tool_call', false],
      ['tool_calls_valid', true],
      ['no_tool_call', true],
      ['no_tool_call', false],
    ]);
    expect(checks('parallel')).toEqual([
      ['tool_call', true],
      ['tool_call', true], // any order
      ['tool_call', true], // strict, in this order
      ['tool_call', false], // strict, another order
      ['tool_call', false], // two calls of get_weather, not one
    ]);
    expect(checks('chat')).toEqual([
      ['no_tool_call', true],
      ['tool_call', false],
      ['tool_calls_valid', true],
    ]);
    const weather = report.cases.find((c) => c.case === 'weather')!.checks;
    expect(weather[3]!.message).toMatch(/\$\.request_id: added "r-91"/);
    expect(weather[4]!.message).toMatch(/\$\.city: "Rome" → "Paris"/);
    expect(weather[6]!.message).toMatch(/must have required property 'country'/);
    expect(report.cases.find((c) => c.case === 'three-calls')!.checks[0]!.message).toMatch(
      /invalid_json.*unknown_tool.*schema_mismatch/,
    );
    expect(run.code).toBe(1);
    // The console names the failing tool checks.
    expect(run.stdout).toMatch(/tool_call/);
  });

  it('keeps the baseline of a tool case: its calls and counts', async () => {
    const accept = await runMain(['baseline', 'accept', run.dir], { cwd: project.dir });
    expect(accept.code, accept.stderr).toBe(0);
    const baseline = JSON.parse(await readFile(join(project.dir, 'baselines/tools.json'), 'utf8'));
    expect(baseline.cases.weather.tool_calls).toMatchObject({
      answered: 1,
      triggered: 1,
      valid: 1,
      first: [expect.objectContaining({ name: 'get_weather' })],
    });
    expect(baseline.cases.weather.content).toBeNull();
  });
});
