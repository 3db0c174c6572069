import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, readRawReport, readReport, readSamples, runDirFrom } from '../helpers/cli.js';
import { runMain, startSim } from '../helpers/main.js';
import { reportSchemaErrors } from '../helpers/report-schema.js';
import { reasoningConfig, startReasoningService } from '../helpers/reasoning-service.js';
import { TOOL_ENV } from '../helpers/tool-server.js';

// Reasoning models through `driftcheck run`: the cap a direct reasoning model takes
// (max_completion_tokens, never a default max_tokens beside it; a judge's too, and the
// temperature it refuses), a model that thinks through
// its whole budget (reasoning_exhausted, naming the cap sent), and reasoning that drifts.

let service: Awaited<ReturnType<typeof startReasoningService>>;
beforeAll(async () => {
  service = await startReasoningService();
});
afterAll(() => service.close());

/** The bodies the service got since `from`, by the prompt that sent them. */
const sentSince = (from: number) =>
  new Map(service.seen.slice(from).map((s) => [s.prompt, s.body!] as const));

const flat = (text: string) => text.replace(/\n\s+/g, ' ');

describe('a direct reasoning model and its token cap', () => {
  it("verify sends its cap under the name the service's config gives caps: max_completion_tokens to a reasoning model", async () => {
    const project = await makeProject({
      'driftcheck.config.yaml': reasoningConfig(service.url, ', max_tokens_param: max_completion_tokens'),
    });
    try {
      const from = service.seen.length;
      const verify = await runMain(['verify', '--service', 'direct', '--model', 'o4-mini'], {
        cwd: project.dir,
        env: TOOL_ENV,
      });
      expect(verify.code, verify.stdout + verify.stderr).toBe(0);
      const sent = service.seen.slice(from).at(-1)!.body!;
      expect(sent).toHaveProperty('max_completion_tokens');
      expect(sent).not.toHaveProperty('max_tokens');
    } finally {
      await project.cleanup();
    }
  });

  it('refuses the default max_tokens; max_tokens_param sends max_completion_tokens, and a case cap replaces the suite one under either name', async () => {
    const project = await makeProject({
      'driftcheck.config.yaml': reasoningConfig(service.url),
      'suites/think.yaml': [
        'suite: think',
        'service: direct',
        'model: o4-mini',
        'cases:',
        '  - id: plain',
        '    prompt: What is 2 + 2?',
        '    expect: [{ contains: "4" }]',
        '  - id: own-cap',
        '    prompt: Add two and two.',
        '    params: { max_completion_tokens: 2000 }',
        '    expect: [{ contains: "4" }]',
        '',
      ].join('\n'),
    });
    try {
      let from = service.seen.length;
      const refused = await runMain(['run', 'suites'], { cwd: project.dir, env: TOOL_ENV });
      expect(refused.code).toBe(1);
      expect(flat(refused.stdout)).toMatch(
        /think\/plain error .*bad_response \(HTTP 400\): Unsupported parameter: 'max_tokens' is not supported with this model\. Use 'max_completion_tokens' instead\. \(driftcheck: set max_tokens_param: max_completion_tokens on the service in the config/,
      );
      // The config's default went out as max_tokens; the case's own cap alone, without a default beside it.
      expect(sentSince(from).get('What is 2 + 2?')).toMatchObject({ max_tokens: 1024 });
      const own = sentSince(from).get('Add two and two.')!;
      expect(own.max_completion_tokens).toBe(2000);
      expect(own).not.toHaveProperty('max_tokens');

      const configured = await makeProject({
        'driftcheck.config.yaml': reasoningConfig(service.url, ', max_tokens_param: max_completion_tokens'),
        'suites/think.yaml': await readFile(join(project.dir, 'suites/think.yaml'), 'utf8'),
      });
      try {
        from = service.seen.length;
        const run = await runMain(['run', 'suites'], { cwd: configured.dir, env: TOOL_ENV });
        expect(run.code, run.stdout + run.stderr).toBe(0);
        const plain = sentSince(from).get('What is 2 + 2?')!;
        expect(plain.max_completion_tokens).toBe(1024);
        expect(plain).not.toHaveProperty('max_tokens');
        // verify's first request follows the config too.
        from = service.seen.length;
        const verify = await runMain(['verify', '--service', 'direct', '--model', 'o4-mini'], {
          cwd: configured.dir,
          env: TOOL_ENV,
        });
        expect(verify.code, verify.stdout).toBe(0);
        expect(service.seen.at(-1)!.body).toMatchObject({ max_completion_tokens: 1024 });
        expect(service.seen.at(-1)!.body).not.toHaveProperty('max_tokens');
      } finally {
        await configured.cleanup();
      }
    } finally {
      await project.cleanup();
    }
  });

  it('a suite cap under one name and a case cap under the other: the case one alone is sent', async () => {
    const project = await makeProject({
      'driftcheck.config.yaml': reasoningConfig(service.url),
      'suites/caps.yaml': [
        'suite: caps',
        'service: direct',
        'model: o4-mini',
        'params: { max_tokens: 300 }',
        'cases:',
        '  - id: case-cap',
        '    prompt: Two and two?',
        '    params: { max_completion_tokens: 900 }',
        '',
      ].join('\n'),
    });
    try {
      const from = service.seen.length;
      const run = await runMain(['run', 'suites'], { cwd: project.dir, env: TOOL_ENV });
      expect(run.code, run.stdout).toBe(0);
      const sent = sentSince(from).get('Two and two?')!;
      expect(sent.max_completion_tokens).toBe(900);
      expect(sent).not.toHaveProperty('max_tokens');
    } finally {
      await project.cleanup();
    }
  });

  it("a judge on a reasoning model: its default temperature 0 is refused as the service refuses it (the cap named as the judge's service names caps); its own params are sent whole", async () => {
    const suite = (judge: string) =>
      [
        'suite: judged',
        'service: router',
        'model: moonshotai/kimi-k2-thinking',
        'cases:',
        '  - id: sum',
        '    prompt: What is 2 + 2?',
        `    expect: [{ judge: { model: o4-mini, service: direct, rubric: "says 4"${judge} } }]`,
        '',
      ].join('\n');
    const config = reasoningConfig(service.url, ', max_tokens_param: max_completion_tokens');
    const defaults = await makeProject({ 'driftcheck.config.yaml': config, 'suites/judged.yaml': suite('') });
    const own = await makeProject({
      'driftcheck.config.yaml': config,
      'suites/judged.yaml': suite(', params: { max_completion_tokens: 2000, reasoning_effort: low }'),
    });
    try {
      const refused = await runMain(['run', 'suites'], { cwd: defaults.dir, env: TOOL_ENV });
      expect(refused.code).toBe(1);
      expect(flat(refused.stdout)).toContain("'temperature' does not support 0 with this model");
      expect(service.seen.at(-1)!.body).toMatchObject({ temperature: 0, max_completion_tokens: 200 });
      expect(service.seen.at(-1)!.body).not.toHaveProperty('max_tokens');

      const judged = await runMain(['run', 'suites'], { cwd: own.dir, env: TOOL_ENV });
      expect(judged.code, judged.stdout + judged.stderr).toBe(0);
      const sent = service.seen.at(-1)!.body!;
      expect(sent).toMatchObject({ model: 'o4-mini', max_completion_tokens: 2000, reasoning_effort: 'low' });
      expect(sent).not.toHaveProperty('temperature');
      const report = await readReport(runDirFrom(judged, own.dir));
      expect(report.cases[0]!.checks[0]).toMatchObject({
        type: 'judge',
        pass: true,
        judge: { verdict: 'pass', model: 'o4-mini' },
      });
    } finally {
      await defaults.cleanup();
      await own.cleanup();
    }
  });
});

describe('a model that spends its whole budget thinking', () => {
  it('is reasoning_exhausted with the cap it was sent, not empty_content; its reasoning tokens are recorded', async () => {
    const project = await makeProject({
      'driftcheck.config.yaml': reasoningConfig(service.url),
      'suites/budget.yaml': [
        'suite: budget',
        'service: direct',
        'model: o4-mini',
        'cases:',
        '  - id: tight',
        '    prompt: Think hard.',
        '    params: { max_completion_tokens: 50 }',
        '',
      ].join('\n'),
      'suites/routed.yaml': [
        'suite: routed',
        'service: router',
        'model: moonshotai/kimi-k2-thinking',
        'cases:',
        '  - id: tight',
        '    prompt: Think harder.',
        '    params: { max_tokens: 40 }',
        '',
      ].join('\n'),
    });
    try {
      const run = await runMain(['run', 'suites'], { cwd: project.dir, env: TOOL_ENV });
      expect(run.code).toBe(1);
      const out = flat(run.stdout);
      expect(out).toMatch(
        /budget\/tight error .*reasoning_exhausted \(HTTP 200\): reasoning used all 50 tokens: raise max_completion_tokens/,
      );
      expect(out).toMatch(
        /routed\/tight error .*reasoning_exhausted \(HTTP 200\): reasoning used all 40 tokens: raise max_tokens/,
      );
      expect(out).not.toMatch(/empty_content/);
      const dir = runDirFrom(run, project.dir);
      const report = await readReport(dir);
      expect(reportSchemaErrors(report)).toEqual([]);
      const entry = report.cases.find((c) => c.id === 'budget/tight')!;
      expect(entry.error).toMatchObject({ kind: 'reasoning_exhausted', http_status: 200 });
      expect(entry.stats.reasoning_tokens).toBe(50);
      expect(entry.reasoning_tokens).toBe(50);
      const samples = await readSamples(dir);
      expect(samples.find((s) => s.suite === 'routed')).toMatchObject({
        reasoning_tokens: 40,
        reasoning: 'I add two and two.',
        error: { kind: 'reasoning_exhausted' },
      });
    } finally {
      await project.cleanup();
    }
  });

  it('against the simulator: its direct reasoning model refuses max_tokens and runs out of budget; a directive makes any model do so', async () => {
    const sim = await startSim();
    const project = await makeProject({
      'driftcheck.config.yaml': reasoningConfig(sim.url),
      'suites/sim-direct.yaml': [
        'suite: sim-direct',
        'service: direct',
        'model: o4-mini',
        'cases:',
        '  - id: default-cap',
        '    prompt: What is 2 + 2?',
        '  - id: tight',
        '    prompt: What is 2 + 2?',
        '    params: { max_completion_tokens: 50 }',
        '  - id: roomy',
        '    prompt: What is 2 + 2?',
        '    params: { max_completion_tokens: 1000 }',
        '    expect: [{ contains: "4" }]',
        '',
      ].join('\n'),
      'suites/sim-router.yaml': [
        'suite: sim-router',
        'service: router',
        'model: moonshotai/kimi-k2-thinking',
        'cases:',
        '  - id: thinks-through',
        '    prompt: Name a colour.',
        '    params: { max_tokens: 300 }',
        '    sim: { fault: reasoning_exhausted }',
        '',
      ].join('\n'),
    });
    try {
      const run = await runMain(['run', 'suites'], { cwd: project.dir, env: TOOL_ENV });
      expect(run.code).toBe(1);
      const out = flat(run.stdout);
      expect(out).toMatch(
        /sim-direct\/default-cap error .*bad_response \(HTTP 400\): Unsupported parameter: 'max_tokens'/,
      );
      expect(out).toMatch(
        /sim-direct\/tight error .*reasoning_exhausted \(HTTP 200\): reasoning used all 50 tokens: raise max_completion_tokens/,
      );
      expect(out).toMatch(
        /sim-router\/thinks-through error .*reasoning_exhausted \(HTTP 200\): reasoning used all 300 tokens: raise max_tokens/,
      );
      const report = await readReport(runDirFrom(run, project.dir));
      const byId = new Map(report.cases.map((c) => [c.id, c]));
      const roomy = byId.get('sim-direct/roomy')!;
      expect(roomy.status).toBe('pass');
      // Its thinking is counted in its completion tokens, and said apart.
      expect(roomy.reasoning_tokens).toBeGreaterThan(0);
      expect(roomy.usage!.completion_tokens).toBeGreaterThan(roomy.reasoning_tokens!);
      // On the router, the thinking it did comes back with the cut-off answer.
      expect(byId.get('sim-router/thinks-through')!.reasoning).toMatch(/^The user asks: "Name a colour\."/);
    } finally {
      await project.cleanup();
      await sim.stop();
    }
  });
});

describe("the simulator's router reasoning model through run", () => {
  it('records its reasoning tokens and text, the same streamed or not', async () => {
    const project = await makeProject({
      'suites/think.yaml': [
        'suite: think',
        'service: router',
        'model: moonshotai/kimi-k2-thinking',
        'params: { max_tokens: 256 }',
        'cases:',
        '  - id: colour',
        '    prompt: Name a colour.',
        '',
      ].join('\n'),
    });
    try {
      const entryOf = async (...flags: string[]) => {
        const run = await runMain(['run', '--sim', 'suites', ...flags], { cwd: project.dir });
        expect(run.code, run.stderr).toBe(0);
        return (await readReport(runDirFrom(run, project.dir))).cases[0]!;
      };
      const plain = await entryOf();
      const streamed = await entryOf('--stream');
      expect(plain.reasoning).toMatch(/^The user asks: "Name a colour\."/);
      expect(plain.reasoning_tokens).toBe(Math.ceil(plain.reasoning!.length / 4));
      expect(plain.usage!.completion_tokens).toBeGreaterThan(plain.reasoning_tokens!);
      expect(streamed.streaming).toBeTruthy();
      expect([streamed.reasoning, streamed.reasoning_tokens, streamed.usage]).toEqual([
        plain.reasoning,
        plain.reasoning_tokens,
        plain.usage,
      ]);
    } finally {
      await project.cleanup();
    }
  });
});

describe('reasoning drifts as usage does', () => {
  it('reasoning_changed when the reasoning tokens or the reasoning text move beyond the usage tolerance; not within it', async () => {
    const project = await makeProject({
      'driftcheck.config.yaml': reasoningConfig(service.url),
      'suites/drifting.yaml': [
        'suite: drifting',
        'service: router',
        'model: moonshotai/kimi-k2-thinking',
        'cases:',
        '  - id: sum',
        '    prompt: What is 2 + 2?',
        '    expect: [{ contains: "4" }]',
        '',
      ].join('\n'),
    });
    const night = async () => {
      const run = await runMain(['run', 'suites'], { cwd: project.dir, env: TOOL_ENV });
      const dir = runDirFrom(run, project.dir);
      return { run, dir, entry: (await readReport(dir)).cases[0]! };
    };
    try {
      Object.assign(service.knobs, { thinking: 100, reasoning: 'Two and two. '.repeat(10) });
      const first = await night();
      expect(first.run.code).toBe(0);
      expect(first.entry).toMatchObject({ reasoning_tokens: 100, reasoning_chars: 130 });
      expect(await runMain(['baseline', 'accept', first.dir, '--force'], { cwd: project.dir })).toMatchObject(
        {
          code: 0,
        },
      );
      const baseline = JSON.parse(await readFile(join(project.dir, 'baselines/drifting.json'), 'utf8'));
      expect(baseline.cases.sum).toMatchObject({ reasoning_tokens: 100, reasoning: 130 });

      // Within ±25 %: no drift.
      Object.assign(service.knobs, { thinking: 110, reasoning: 'Two and two. '.repeat(11) });
      const calm = await night();
      expect(calm.entry.drift.map((d) => d.kind)).not.toContain('reasoning_changed');

      Object.assign(service.knobs, { thinking: 400, reasoning: 'Two and two. '.repeat(40) });
      const moved = await night();
      expect(reportSchemaErrors(await readReport(moved.dir))).toEqual([]);
      const reasoning = moved.entry.drift.filter((d) => d.kind === 'reasoning_changed');
      expect(reasoning.map((d) => [d.severity, d.message])).toEqual([
        ['warn', 'reasoning changed: reasoning characters 130 → 520 (+300%)'],
        ['warn', 'reasoning changed: reasoning tokens 100 → 400 (+300%)'],
      ]);
      // A case line holds what its reader cannot derive: reasoning_chars never (it is the reasoning's length).
      const raw = await readRawReport(moved.dir);
      expect(JSON.stringify(raw)).not.toContain('reasoning_chars');
    } finally {
      Object.assign(service.knobs, { thinking: 100, reasoning: 'I add two and two.' });
      await project.cleanup();
    }
  });
});
