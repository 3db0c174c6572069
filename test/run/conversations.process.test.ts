import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  copyFromRepo,
  makeProject,
  readReport,
  readSamples,
  readTree,
  runCli,
  runDirFrom,
} from '../helpers/cli.js';
import {
  agentSuite,
  callOf as call,
  type Scripted,
  startToolServer,
  TOOL_ENV,
  toolConfig,
} from '../helpers/tool-server.js';

// Issue 35, item by item, as CI runs it: the built binary as a subprocess, against a
// scripted loopback service of this test's own (an agent that loops, ignores a result,
// calls a tool nobody answers, reasons) and against the embedded simulator. The loop's
// every branch is held in-process by test/run/tool-loop.cli.test.ts; this file shows each
// capability through the binary a user runs. Item 9 (the SDK referees) is
// test/run/tool-loop-referee.cli.test.ts.

const head = (suite: string) => agentSuite(suite, 'lookup_order', 'check_policy', 'escalate');

type Body = { messages: Record<string, unknown>[] };
const firstUser = (b: unknown) => (b as Body).messages.find((m) => m.role === 'user')?.content;

let server: Awaited<ReturnType<typeof startToolServer>>;
let script: Parameters<typeof startToolServer>[0] = () => ({ text: 'no' });
beforeAll(async () => {
  server = await startToolServer((...args) => script(...args));
});
afterAll(() => server.close());

/** A project on the scripted service; runs the binary in it. */
async function project(files: Record<string, string>) {
  const p = await makeProject({ 'driftcheck.config.yaml': toolConfig(server.url), ...files });
  const run = (...args: string[]) => runCli(['run', ...args], { cwd: p.dir, env: TOOL_ENV });
  return { ...p, run };
}

describe('conversations through the binary (issue 35)', () => {
  it('1. tool loops: parallel calls answered in call order, results from the suite and from a file; loops and unanswerable calls are named errors', async () => {
    script = (prompt, n) => {
      if (prompt === 'two orders')
        return n === 0
          ? {
              calls: [1, 2].map((o) => ({
                name: 'lookup_order',
                arguments: JSON.stringify({ order: String(o) }),
              })),
            }
          : { text: 'Order 1 shipped; order 2 is lost.' };
      if (prompt === 'loop') return call('lookup_order', { order: '1' });
      return call('escalate', {});
    };
    const p = await project({
      'suites/agent.yaml':
        head('loops') +
        `tool_results:
  lookup_order:
    - when: { order: "1" }
      result: { status: shipped }
    - when: { order: "2" }
      file: results/lost.json
cases:
  - id: parallel
    prompt: two orders
    expect: [{ contains: lost }, { trajectory: { any_order: [lookup_order, lookup_order] } }]
  - id: loops
    prompt: loop
    max_steps: 3
  - id: unanswerable
    prompt: escalate
`,
      'suites/results/lost.json': '{"status":"lost"}',
    });
    try {
      const run = await p.run('suites');
      expect(run.code, run.stderr).toBe(1);
      const console_ = run.stdout.replace(/\n\s+/g, ' ');
      expect(console_).toContain('max_steps_reached: still calling tools after 3 steps');
      expect(console_).toContain(
        'step 1: tool_result_missing: called escalate({}), which no tool_results rule answers',
      );
      // Both calls answered in one turn, in the order they were made.
      const second = server.bodies.filter((b) => firstUser(b) === 'two orders')[1] as Body;
      expect(second.messages.slice(-2)).toEqual([
        { role: 'tool', tool_call_id: 'call_0_0', content: '{"status":"shipped"}' },
        { role: 'tool', tool_call_id: 'call_0_1', content: '{"status":"lost"}' },
      ]);
      const samples = new Map((await readSamples(runDirFrom(run, p.dir))).map((s) => [s.case, s]));
      expect(samples.get('parallel')!.status).toBe('pass');
      expect(samples.get('loops')!.error!.kind).toBe('max_steps_reached');
      expect(samples.get('unanswerable')!.error!.kind).toBe('tool_result_missing');
      // 10. Every view names the step a conversation stopped at; report.html has its transcript.
      const dir = runDirFrom(run, p.dir);
      expect(await readFile(join(dir, 'junit.xml'), 'utf8')).toContain('error at: step 3');
      expect(await readFile(join(dir, 'summary.md'), 'utf8')).toMatch(/step 3: max\\_steps\\_reached/);
      expect(console_).toMatch(/step 3: max_steps_reached/);
    } finally {
      await p.cleanup();
    }
  });

  it('2. scripted turns: each reply carried forward and checked; a failing turn fails the case, and stop_on_failure ends the chat', async () => {
    script = (prompt) =>
      (
        ({
          'Hello?': { text: 'Hi, how can I help?' },
          'How long is the return window?': { text: 'You have 30 days.' },
          'And for gift cards?': { text: 'Gift cards are final sale.' },
          'Strict hello?': { text: 'Hi.' },
          'Strict window?': { text: 'I cannot say.' },
        }) as Record<string, Scripted>
      )[prompt] ?? { text: 'never asked' };
    const p = await project({
      'suites/chat.yaml': `suite: chat
service: router
model: openai/gpt-4o-mini
cases:
  - id: chat
    prompt: Hello?
    expect: [{ contains: help }]
    turns:
      - user: How long is the return window?
        expect: [{ contains: 30 days }]
      - user: And for gift cards?
        expect: [{ contains: refundable }]
  - id: strict
    prompt: Strict hello?
    stop_on_failure: true
    turns:
      - user: Strict window?
        expect: [{ contains: 30 days }]
      - user: Strict never sent?
`,
    });
    try {
      const run = await p.run('suites');
      expect(run.code, run.stderr).toBe(1);
      expect(run.stdout).toMatch(/contains: turn 3: .*refundable/);
      const samples = new Map((await readSamples(runDirFrom(run, p.dir))).map((s) => [s.case, s]));
      const chat = samples.get('chat')!;
      expect(chat.status).toBe('fail');
      expect(chat.turns!.map((t) => t.content)).toEqual([
        'Hi, how can I help?',
        'You have 30 days.',
        'Gift cards are final sale.',
      ]);
      // The third request carried both earlier replies as the service gave them.
      const third = server.bodies.filter((b) => firstUser(b) === 'Hello?')[2] as Body;
      expect(third.messages.map((m) => [m.role, m.content])).toEqual([
        ['user', 'Hello?'],
        ['assistant', 'Hi, how can I help?'],
        ['user', 'How long is the return window?'],
        ['assistant', 'You have 30 days.'],
        ['user', 'And for gift cards?'],
      ]);
      expect(samples.get('strict')!.turns).toHaveLength(2);
      expect(
        server.bodies.some((b) => (b as Body).messages.some((m) => m.content === 'Strict never sent?')),
      ).toBe(false);
    } finally {
      await p.cleanup();
    }
  });

  it('3. what the services need to continue: the assistant turn as received, ids and reasoning_details sent back, the reasoning text not', async () => {
    const details = [
      { type: 'reasoning.encrypted', data: 'opaque-blob', format: 'openai-responses-v1', index: 0 },
    ];
    script = (prompt, n) =>
      n === 0
        ? {
            ...call('lookup_order', { order: '7' }),
            reasoning: 'I should look it up.',
            reasoning_details: details,
          }
        : { text: 'Order 7 shipped.', reasoning: 'The tool says it shipped.' };
    const p = await project({
      'suites/agent.yaml':
        head('reasoning') +
        `tool_results:\n  lookup_order: shipped\ncases:\n  - id: r\n    prompt: order 7?\n`,
    });
    try {
      const run = await p.run('suites');
      expect(run.code, run.stdout + run.stderr).toBe(0);
      const second = server.bodies.filter((b) => firstUser(b) === 'order 7?')[1] as Body;
      expect(second.messages[1]).toEqual({
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_0_0',
            type: 'function',
            function: { name: 'lookup_order', arguments: '{"order":"7"}' },
          },
        ],
        reasoning_details: details,
      });
      expect(second.messages[2]).toEqual({ role: 'tool', tool_call_id: 'call_0_0', content: 'shipped' });
      // The reasoning text is recorded (the final answer's), never sent.
      const report = await readReport(runDirFrom(run, p.dir));
      expect(report.cases[0]!.reasoning).toBe('The tool says it shipped.');
    } finally {
      await p.cleanup();
    }
  });

  it('4. recording: every step with its model and usage, one trajectory per repeat, and a key echoed in step 3 never written', async () => {
    const key = TOOL_ENV.OPENROUTER_API_KEY;
    // By the conversation so far (samples' steps interleave): no tool answer yet, one, two.
    script = (prompt, n, messages) =>
      messages.filter((m) => m.role === 'tool').length === 0
        ? { ...call('lookup_order', { order: '9' }), cost: 0.001 }
        : messages.filter((m) => m.role === 'tool').length === 1
          ? { ...call('check_policy', { sku: 'K-1' }), cost: 0.002 }
          : { text: `Returnable. Your key is ${key}, by the way.`, cost: 0.003 };
    const p = await project({
      'suites/agent.yaml':
        head('recorded') +
        `tool_results:\n  lookup_order: '{"sku":"K-1"}'\n  check_policy: returnable\ncases:\n  - id: rec\n    prompt: return 9?\n    repeat: 3\n`,
    });
    try {
      const run = await p.run('suites');
      expect(run.code, run.stdout + run.stderr).toBe(0);
      const samples = await readSamples(runDirFrom(run, p.dir));
      expect(samples).toHaveLength(3);
      for (const s of samples) {
        expect(s.trajectory!.calls.map((c) => c.tool)).toEqual(['lookup_order', 'check_policy']);
        expect(s.steps!.map((st) => [st.model, st.finish_reason, st.usage?.cost])).toEqual([
          ['openai/gpt-4o-mini', 'tool_calls', 0.001],
          ['openai/gpt-4o-mini', 'tool_calls', 0.002],
          ['openai/gpt-4o-mini', 'stop', 0.003],
        ]);
        expect(s.usage).toMatchObject({ prompt_tokens: 60, completion_tokens: 30, cost: 0.006 });
        expect(s.redacted).toBe(true);
      }
      // Not the key, nor any 12-character piece of it, in any file the run wrote or printed.
      const written = [...(await readTree(join(p.dir, 'reports'))).values(), run.stdout, run.stderr].join(
        '\n',
      );
      for (let i = 0; i + 12 <= key.length; i++) expect(written).not.toContain(key.slice(i, i + 12));
    } finally {
      await p.cleanup();
    }
  });

  it('5. checks: trajectory, max_steps and no_repeated_call fail an agent that repeats a call and skips the policy', async () => {
    script = (prompt, n) => (n < 2 ? call('lookup_order', { order: '5' }) : { text: 'It is returnable.' });
    const p = await project({
      'suites/agent.yaml':
        head('checks') +
        `tool_results:\n  lookup_order: '{"sku":"K-1"}'\ncases:\n  - id: c\n    prompt: return 5?\n    expect:\n      - trajectory: { in_order: [lookup_order, check_policy] }\n      - max_steps: 2\n      - no_repeated_call: true\n      - contains: returnable\n`,
    });
    try {
      const run = await p.run('suites');
      expect(run.code).toBe(1);
      const [sample] = await readSamples(runDirFrom(run, p.dir));
      expect(sample!.checks.map((c) => [c.type, c.pass])).toEqual([
        ['trajectory', false],
        ['max_steps', false],
        ['no_repeated_call', false],
        ['contains', true],
      ]);
      const console_ = run.stdout.replace(/\n\s+/g, ' ');
      for (const type of ['trajectory', 'max_steps', 'no_repeated_call'])
        expect(console_).toContain(`${type}:`);
    } finally {
      await p.cleanup();
    }
  });

  it('6. drift: a night whose agent takes another route than the baseline is trajectory_changed and steps_changed', async () => {
    const answered = (messages: readonly { role: string }[]) =>
      messages.filter((m) => m.role === 'tool').length;
    script = (prompt, n, messages) =>
      answered(messages) === 0
        ? call('lookup_order', { order: '3' })
        : answered(messages) === 1
          ? call('check_policy', { sku: 'K-1' })
          : { text: 'ok' };
    const p = await project({
      'suites/agent.yaml':
        head('drifting') +
        `tool_results:\n  lookup_order: '{"sku":"K-1"}'\n  check_policy: returnable\ncases:\n  - id: d\n    prompt: return 3?\n`,
    });
    try {
      const first = await p.run('suites', '--update-baselines');
      expect(first.code, first.stdout + first.stderr).toBe(0);
      // Tonight: the order looked up three times before the policy (5 steps to the baseline's 3).
      script = (prompt, n, messages) =>
        answered(messages) < 3
          ? call('lookup_order', { order: '3' })
          : answered(messages) === 3
            ? call('check_policy', { sku: 'K-1' })
            : { text: 'ok' };
      const night = await p.run('suites');
      const report = await readReport(runDirFrom(night, p.dir));
      const kinds = report.cases[0]!.drift.map((d) => d.kind);
      expect(kinds).toEqual(expect.arrayContaining(['trajectory_changed', 'steps_changed']));
      expect(night.stdout.replace(/\n\s+/g, ' ')).toContain(
        'trajectory changed: lookup_order → lookup_order → lookup_order → check_policy (baseline: lookup_order → check_policy)',
      );
    } finally {
      await p.cleanup();
    }
  });

  it('8. the simulator plays agents: it answers from the results, and its faults loop and stop early', async () => {
    const p = await makeProject({
      'suites/sim.yaml': `suite: sim-agents
service: router
model: moonshotai/kimi-k2-thinking
params:
  parallel_tool_calls: false
  tools:
    - type: function
      function: { name: lookup_order, parameters: { type: object, required: [order_id], properties: { order_id: { type: string } } } }
    - type: function
      function: { name: check_policy, parameters: { type: object, required: [sku], properties: { sku: { type: string } } } }
tool_results:
  lookup_order: { result: { status: delivered, sku: KETTLE-2 } }
  check_policy: { result: { returnable: true, window: 30 days } }
max_steps: 4
cases:
  - id: clean
    prompt: Can I return order A-1001?
    sim: { provider: Moonshot AI }
    expect: [{ contains: 30 days }, { trajectory: [lookup_order, check_policy] }]
  - id: loops
    prompt: Can I return order A-1001?
    sim: { provider: Moonshot AI, agent_fault: loop }
  - id: early
    prompt: Can I return order A-1001?
    sim: { provider: Moonshot AI, agent_fault: stop_early }
    expect: [{ trajectory: [lookup_order, check_policy] }]
`,
    });
    try {
      const run = await runCli(['run', '--sim', 'suites'], { cwd: p.dir, env: { DRIFTCHECK_SIM_SEED: '3' } });
      expect(run.code).toBe(1);
      const samples = new Map((await readSamples(runDirFrom(run, p.dir))).map((s) => [s.case, s]));
      expect(samples.get('clean')!.status).toBe('pass');
      expect(samples.get('clean')!.content).toContain('30 days');
      expect(samples.get('loops')!.error!.kind).toBe('max_steps_reached');
      expect(samples.get('early')!.trajectory!.calls.map((c) => c.tool)).toEqual(['lookup_order']);
      expect(samples.get('early')!.status).toBe('fail');
    } finally {
      await p.cleanup();
    }
  });

  it("11. the demo: `run --sim suites/demo` catches tonight's broken agent loops", async () => {
    const p = await makeProject();
    try {
      await copyFromRepo(p.dir, 'suites/demo', 'baselines');
      const run = await runCli(['run', '--sim', 'suites/demo'], { cwd: p.dir });
      expect(run.code).toBe(1);
      const report = await readReport(runDirFrom(run, p.dir));
      const byId = new Map(report.cases.filter((c) => c.suite === 'agent-demo').map((c) => [c.case, c]));
      expect(byId.get('return-kettle')!.status).toBe('error');
      expect(byId.get('return-gift-card')!.status).toBe('fail');
      expect(byId.get('return-toaster')!.drift.map((d) => d.kind)).toContain('trajectory_changed');
      expect(byId.get('order-status')!.status).toBe('pass');
    } finally {
      await p.cleanup();
    }
  });
});
