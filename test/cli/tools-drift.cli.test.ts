import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, readReport, runDirFrom } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';
import { reportSchemaErrors } from '../helpers/report-schema.js';
import {
  type Scripted,
  startToolServer,
  TOOL_ENV,
  toolConfig,
  WEATHER_TOOLS,
} from '../helpers/tool-server.js';

const call = (name: string, args: string): Scripted => ({ calls: [{ name, arguments: args }] });

/** Last night's model: every case calls a tool validly but one, which answers in text. */
const LAST_NIGHT: Record<string, Scripted> = {
  Weather: call('get_weather', '{"city":"Paris","units":"celsius"}'),
  Switch: call('get_weather', '{"city":"Oslo"}'),
  Invalid: call('get_weather', '{"city":"Lima"}'),
  Chat: { text: 'Hello there.' },
};

/** Tonight's: other arguments, a call that became text, a call that breaks its schema, text that became a call. */
const TONIGHT: Record<string, Scripted> = {
  Weather: call('get_weather', '{"city":"Rome","units":"fahrenheit"}'),
  Switch: { text: 'It is sunny in Oslo.' },
  Invalid: call('get_weather', '{"town":"Lima"}'),
  Chat: call('get_time', '{"zone":"</script><script>alert(1)</script>"}'),
};

const suite = (name: string, cases: string[]) =>
  [
    `suite: ${name}`,
    'service: router',
    'model: openai/gpt-4o-mini',
    'params:',
    '  tools:',
    ...WEATHER_TOOLS,
    'cases:',
    ...cases,
    '',
  ].join('\n');

let server: Awaited<ReturnType<typeof startToolServer>>;
let project: Awaited<ReturnType<typeof makeProject>>;
let night: { code: number | null; stdout: string; dir: string };

beforeAll(async () => {
  server = await startToolServer((prompt) => LAST_NIGHT[prompt]!);
  project = await makeProject({
    'driftcheck.config.yaml': toolConfig(server.url),
    'suites/tools.yaml': suite(
      'tools',
      ['Weather', 'Switch', 'Invalid', 'Chat'].flatMap((p) => [
        `  - id: ${p.toLowerCase()}`,
        `    prompt: ${p}`,
      ]),
    ),
  });
  const first = await runMain(['run', '--update-baselines'], { cwd: project.dir, env: TOOL_ENV });
  expect(first.code, first.stdout + first.stderr).toBe(0);
  server.rescript((prompt) => TONIGHT[prompt]!);
  const r = await runMain(['run'], { cwd: project.dir, env: TOOL_ENV });
  night = { code: r.code, stdout: r.stdout, dir: runDirFrom(r, project.dir) };
});
afterAll(async () => {
  await project.cleanup();
  await server.close();
});

describe('tool drift against the baseline', () => {
  it('fails the night a call became text or the reverse (tool_trigger_changed), names changed arguments by JSON path (tool_call_changed) and an invalid call (tool_call_invalid)', async () => {
    expect(night.code).toBe(1);
    const report = await readReport(night.dir);
    expect(reportSchemaErrors(report)).toEqual([]);
    const drift = (id: string) =>
      report.cases.find((c) => c.case === id)!.drift.filter((d) => d.kind.startsWith('tool_'));
    expect(drift('switch').map((d) => [d.kind, d.severity, d.message])).toEqual([
      [
        'tool_trigger_changed',
        'fail',
        'a tool call became a text answer: get_weather({"city":"Oslo"}) → text',
      ],
    ]);
    expect(drift('chat').map((d) => [d.kind, d.severity, d.message])).toEqual([
      [
        'tool_trigger_changed',
        'fail',
        'a text answer became a tool call: get_time({"zone":"</script><script>alert(1)</script>"})',
      ],
    ]);
    expect(drift('weather').map((d) => [d.kind, d.severity, d.message])).toEqual([
      [
        'tool_call_changed',
        'warn',
        'tool call changed: get_weather 2 JSON values differ: $.city: "Paris" → "Rome"; $.units: "celsius" → "fahrenheit"',
      ],
    ]);
    const invalid = drift('invalid');
    expect(invalid.map((d) => [d.kind, d.severity])).toEqual([
      ['tool_call_invalid', 'fail'],
      ['tool_call_changed', 'warn'],
    ]);
    expect(invalid[0]!.message).toMatch(
      /invalid tool call: get_weather\(\{"town":"Lima"\}\): schema_mismatch: .*required property 'city'/,
    );
    expect(invalid[1]!.message).toMatch(/\$\.city: removed "Lima"; \$\.town: added "Lima"/);
    // A call that became text is not also a content change: a tool answer has no content.
    expect(report.cases.find((c) => c.case === 'switch')!.drift.map((d) => d.kind)).not.toContain(
      'content_changed',
    );
  });

  it('names tool drift in the console, Markdown and JUnit, and shows each call in report.html, escaped', async () => {
    // The console lists each drift by its message (it names no kinds, for any drift).
    expect(night.stdout).toMatch(/✗ tools\/switch[^\n]*\n\s+a tool call became a text answer: get_weather/);
    expect(night.stdout).toMatch(/✗ tools\/invalid[^\n]*\n\s+invalid tool call: get_weather/);
    expect(night.stdout).toMatch(
      /! tools\/weather[^\n]*\n\s+tool call changed: get_weather 2 JSON values differ/,
    );
    const files = await readdir(night.dir);
    const md = await readFile(join(night.dir, 'summary.md'), 'utf8');
    const junit = await readFile(
      join(
        night.dir,
        files.find((f) => f.endsWith('.xml'))!,
      ),
      'utf8',
    );
    // JUnit names each drift by kind and message; Markdown by message, as every drift.
    expect(junit).toMatch(/drift fail tool_trigger_changed: a tool call became a text answer/);
    expect(junit).toMatch(/drift warn tool_call_changed: tool call changed: get_weather/);
    expect(junit).toMatch(/drift fail tool_call_invalid: invalid tool call/);
    expect(junit).toMatch(/type="tool_trigger_changed"/);
    expect(md).toMatch(/a tool call became a text answer/);
    expect(md).toMatch(/invalid tool call/);
    // report.html embeds each call, its arguments pretty-printed, the baseline's beside a changed one;
    // model output stays inert data (no closing script tag from it reaches the page).
    const html = await readFile(join(night.dir, 'report.html'), 'utf8');
    const data = JSON.parse(
      /<script type="application\/json" id="report-data">([^]*?)<\/script>/.exec(html)![1]!,
    );
    const page = (id: string) => data.cases.find((c: { case: string }) => c.case === id);
    expect(page('weather').tool_calls).toEqual([
      { name: 'get_weather', arguments: '{\n  "city": "Rome",\n  "units": "fahrenheit"\n}', invalid: null },
    ]);
    expect(page('weather').baseline_tool_calls[0].arguments).toContain('"Paris"');
    expect(page('switch').tool_calls).toBeNull();
    expect(page('switch').baseline_tool_calls[0].name).toBe('get_weather');
    expect(page('invalid').tool_calls[0].invalid).toMatch(/^schema_mismatch: /);
    expect(page('chat').tool_calls[0].arguments).toContain('alert(1)');
    expect(html).not.toContain('<script>alert(1)');
  });
});

describe('tool drift over repeated samples', () => {
  it('detects a valid-call rate that dropped with the exact test of pass rates, Holm-adjusted over the suite, and leaves a small dip alone', async () => {
    const valid = '{"city":"Paris"}';
    const bad = '{"city":12}';
    const local = await startToolServer(() => call('get_weather', valid));
    const repeated = await makeProject({
      'driftcheck.config.yaml': toolConfig(local.url),
      'suites/rates.yaml': suite('rates', [
        '  - id: halved',
        '    prompt: Halved',
        '  - id: dip',
        '    prompt: Dip',
        '  - id: fades',
        '    prompt: Fades',
      ]),
    });
    try {
      const first = await runMain(['run', '--repeat', '20', '--update-baselines'], {
        cwd: repeated.dir,
        env: TOOL_ENV,
      });
      expect(first.code, first.stderr).toBe(0);
      // Tonight half of one case's calls break the schema; the other case has 2 bad calls in 20.
      // A third answers in text half the time.
      local.rescript((prompt, n) =>
        prompt === 'Fades' && n % 2 === 1
          ? { text: 'Sunny.' }
          : call(
              'get_weather',
              (prompt === 'Halved' ? n % 2 === 1 : prompt === 'Dip' && n < 2) ? bad : valid,
            ),
      );
      const r = await runMain(['run', '--repeat', '20'], { cwd: repeated.dir, env: TOOL_ENV });
      expect(r.code).toBe(1);
      const report = await readReport(runDirFrom(r, repeated.dir));
      expect(reportSchemaErrors(report)).toEqual([]);
      const halved = report.cases.find((c) => c.case === 'halved')!;
      expect(halved.tool_use).toMatchObject({ answered: 20, triggered: 20, valid: 10, valid_rate: 0.5 });
      const drift = halved.drift.find((d) => d.kind === 'tool_call_invalid')!;
      expect(drift.severity).toBe('fail');
      expect(drift.message).toMatch(
        /^valid-call rate 100% \(20\/20\) → 50% \(10\/20\), p = \S+ \(Holm-adjusted over 3 repeated tool cases, alpha 0\.05\)$/,
      );
      expect(halved.drift.map((d) => d.kind)).not.toContain('tool_trigger_changed');
      const dip = report.cases.find((c) => c.case === 'dip')!;
      expect(dip.tool_use).toMatchObject({ valid: 18 });
      expect(dip.drift.map((d) => d.kind)).not.toContain('tool_call_invalid');
      const fades = report.cases.find((c) => c.case === 'fades')!;
      expect(fades.tool_use).toMatchObject({ answered: 20, triggered: 10, trigger_rate: 0.5, valid_rate: 1 });
      expect(fades.drift.find((d) => d.kind === 'tool_trigger_changed')?.message).toMatch(
        /^tool-call rate 100% \(20\/20\) → 50% \(10\/20\), p = \S+ \(Holm-adjusted over both ways of 3 repeated tool cases, alpha 0\.025\)$/,
      );
      // The suite's pooled tests say it too, once each rate.
      expect(report.suites[0]!.drift.filter((d) => d.kind.startsWith('tool_')).map((d) => d.message)).toEqual(
        [
          expect.stringMatching(
            /^suite tool-call rate 100% \(60\/60\) → 83% \(50\/60\) over 3 repeated tool cases, p = /,
          ),
          expect.stringMatching(
            /^suite valid-call rate 100% \(60\/60\) → 76% \(38\/50\) over 3 repeated tool cases, p = /,
          ),
        ],
      );
    } finally {
      await repeated.cleanup();
      await local.close();
    }
  });
});
