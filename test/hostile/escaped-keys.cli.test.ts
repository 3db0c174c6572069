import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeProject, readSamples, readTree, runDirFrom } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';
import { sendJson, startLoopbackService } from './loopback.js';

// Generated per run; never in a file driftcheck reads.
const hex = (n: number) =>
  Array.from({ length: n }, () => Math.floor(Math.random() * 16).toString(16)).join('');
const KEY = `sk-or-v1-${hex(64)}`;

/** One character as a JSON `\uXXXX` escape (hex digits in the case asked for). */
const escape = (ch: string, upper = false) => {
  const hexCode = ch.charCodeAt(0).toString(16).padStart(4, '0');
  return `\\u${upper ? hexCode.toUpperCase() : hexCode}`;
};

/** The key as models write it inside JSON: escapes that a JSON reader decodes back to the key. */
const SPELLINGS = {
  // The first letter escaped, as in `{"city":"\u0073k-or-v1-…"}`.
  first: `${escape(KEY[0]!)}${KEY.slice(1)}`,
  // Every character escaped: no piece of the key is left in clear in the text.
  every: [...KEY].map((ch) => escape(ch)).join(''),
  // One character in the middle, its hex digits upper-case.
  middle: `${KEY.slice(0, 30)}${escape(KEY[30]!, true)}${KEY.slice(31)}`,
};

/** A completion: a text answer, or one call of get_weather with `args` (the arguments string). */
function answer(what: { content: string } | { args: string }): string {
  const message =
    'content' in what
      ? { role: 'assistant', content: what.content }
      : {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: what.args } },
          ],
        };
  return JSON.stringify({
    id: 'gen-1',
    object: 'chat.completion',
    model: 'openai/gpt-4o-mini',
    choices: [{ index: 0, message, finish_reason: 'content' in what ? 'stop' : 'tool_calls' }],
    usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
  });
}

/** Tonight's answer to each prompt: the key echoed in every layer a reader decodes. */
function hostile(prompt: string): string {
  const [kind, spelling] = prompt.split(':') as [string, keyof typeof SPELLINGS];
  const key = SPELLINGS[spelling];
  switch (kind) {
    case 'args':
      return answer({ args: `{"city":"${key}","units":"celsius"}` });
    // JSON in a string of the arguments: two layers of escapes (`\\u0073` in the arguments).
    case 'nested':
      return answer({ args: JSON.stringify({ city: 'Paris', note: `{"token":"${key}"}` }) });
    // Arguments that are not JSON (cut short): nothing decodes them, yet they hold the key.
    case 'broken':
      return answer({ args: `{"city":"${key}` });
    // JSON in the content, which a json_schema check decodes.
    case 'content':
      return answer({ content: `Here it is: {"token":"${key}"}` });
    default:
      throw new Error(`no answer for ${prompt}`);
  }
}

/** Last night's honest answer to the same prompts. */
function honest(prompt: string): string {
  if (prompt.startsWith('content:')) return answer({ content: 'Here it is: {"token":"none"}' });
  return answer({ args: '{"city":"Paris","units":"celsius"}' });
}

const CASES = Object.keys(SPELLINGS).flatMap((spelling) =>
  ['args', 'nested', 'broken', 'content'].map((kind) => {
    const expect =
      kind === 'content'
        ? '[{ json_schema: { type: object, properties: { token: { const: none } } } }, { equals: "Here it is" }]'
        : '[{ tool_call: { name: get_weather, arguments: { city: Paris } } }, { tool_calls_valid: true }, { no_tool_call: get_weather }]';
    return `  - id: ${kind}-${spelling}\n    prompt: "${kind}:${spelling}"\n    expect: ${expect}\n`;
  }),
);

const SUITE = `suite: echo
service: router
model: openai/gpt-4o-mini
params:
  tools:
    - type: function
      function:
        name: get_weather
        parameters:
          type: object
          required: [city]
          properties: { city: { type: string, maxLength: 12 }, units: { enum: [celsius, fahrenheit] }, note: { type: string } }
cases:
${CASES.join('')}`;

/** Every window of `size` characters of the key found in `text`, also once JSON and HTML escapes are decoded. */
function pieces(text: string, size = 12): string[] {
  const decoded = text
    .replace(/\\+u([0-9a-fA-F]{4})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)))
    .replace(/&#x([0-9a-fA-F]+);/g, (_m, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_m, d: string) => String.fromCodePoint(Number(d)));
  const found: string[] = [];
  for (let i = 0; i + size <= KEY.length; i++) {
    const piece = KEY.slice(i, i + size);
    if (text.includes(piece) || decoded.includes(piece)) found.push(piece);
  }
  return found;
}

describe('a key echoed in JSON escapes inside the answer (tool-call arguments, JSON in the content)', () => {
  it('leaves no 12-character piece of it in any output: stdout, stderr, the run folder, baselines', async () => {
    let night: (prompt: string) => string = honest;
    const service = await startLoopbackService((req, res) => sendJson(res, 200, night(req.prompt)));
    const project = await makeProject({
      'driftcheck.config.yaml': `services:
  router: { kind: router, base_url: ${service.url}/api/v1, api_key_env: OPENROUTER_API_KEY, retries: 0 }
`,
      'suites/echo.yaml': SUITE,
    });
    const env = { OPENROUTER_API_KEY: KEY };
    try {
      // Last night, honest answers became the baseline; tonight's calls are compared with them.
      const first = await runMain(['run', '--update-baselines'], { cwd: project.dir, env });
      expect(first.stderr).not.toMatch(/internal error/);
      night = hostile;
      const run = await runMain(['run'], { cwd: project.dir, env });
      expect(run.stderr).not.toMatch(/internal error/);
      expect(run.code, run.stderr).toBe(1);
      const dir = runDirFrom(run, project.dir);
      // Tonight's answers accepted: the baseline holds them too.
      const accept = await runMain(['baseline', 'accept', '--force', dir], { cwd: project.dir, env });
      expect(accept.code, accept.stderr).toBe(0);
      const rendered = await runMain(['report', dir], { cwd: project.dir, env });
      expect(rendered.stderr).not.toMatch(/internal error/);

      const files = new Map([
        ...(await readTree(join(project.dir, 'reports'))),
        ...(await readTree(join(project.dir, 'baselines'))),
      ]);
      const names = [...files.keys()];
      for (const name of ['results.jsonl', 'report.json', 'report.html', 'junit.xml', 'summary.md'])
        expect(
          names.some((f) => f.endsWith(name)),
          name,
        ).toBe(true);
      expect(names.some((f) => f.endsWith('baselines/echo.json'))).toBe(true);

      const outputs: [string, string][] = [
        ['run stdout', run.stdout],
        ['run stderr', run.stderr],
        ['accept stdout', accept.stdout],
        ['accept stderr', accept.stderr],
        ['report stdout', rendered.stdout],
        ['report stderr', rendered.stderr],
        ...files,
      ];
      const leaks = outputs.flatMap(([name, text]) => pieces(text).map((p) => `${name}: ${p}`));
      expect(leaks).toEqual([]);

      // The answers were redacted where they entered: every sample says so, and what the
      // checks and the drift say is about [REDACTED], in whichever layer it sat.
      const samples = await readSamples(dir);
      expect(samples).toHaveLength(CASES.length);
      expect(samples.filter((s) => !s.redacted).map((s) => s.case)).toEqual([]);
      const byCase = new Map(samples.map((s) => [s.case, s]));
      for (const spelling of Object.keys(SPELLINGS)) {
        const args = byCase.get(`args-${spelling}`)!;
        expect(args.tool_calls![0]!.parsed).toEqual({ city: '[REDACTED]', units: 'celsius' });
        expect(args.checks[0]!.message).toContain('[REDACTED]');
        const nested = byCase.get(`nested-${spelling}`)!.tool_calls![0]!;
        expect(JSON.parse((nested.parsed as { note: string }).note)).toEqual({ token: '[REDACTED]' });
        expect(byCase.get(`broken-${spelling}`)!.tool_calls![0]).toMatchObject({
          arguments: '{"city":"[REDACTED]',
          invalid: 'invalid_json',
        });
        expect(byCase.get(`content-${spelling}`)!.content).toBe('Here it is: {"token":"[REDACTED]"}');
      }
      // The argument diff (stdout, junit.xml, summary.md) names the value as it was redacted.
      expect(run.stdout.replace(/\s+/g, ' ')).toContain(
        'tool call changed: get_weather 1 JSON value differ: $.city: "Paris" → "[REDACTED]"',
      );
      expect(run.stderr).toMatch(new RegExp(`replaced by \\[REDACTED\\] in ${CASES.length} sample`));
    } finally {
      await service.close();
      await project.cleanup();
    }
  });
});
