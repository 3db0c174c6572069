import { describe, expect, it } from 'vitest';
import { readReport, readSamples, runDirFrom } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';
import {
  callOf as call,
  strictAgentParams,
  type Scripted,
  TOOL_ENV,
  useToolProject,
} from '../helpers/tool-server.js';

// A case with tool_results runs as a loop against a scripted loopback service: driftcheck
// answers each call with its canned result, sends the conversation again, and stops at a
// text answer, at max_steps, or at a call it cannot answer.
const SUITE = `suite: agent
service: router
model: openai/gpt-4o-mini
${strictAgentParams('lookup_order', 'check_policy', 'escalate')}tool_results:
  lookup_order: '{"status":"shipped","sku":"A-1"}'
  check_policy:
    - when: { sku: B-2 }
      result: { refundable: false }
    - when: { sku: A-1 }
      result: { refundable: true, window_days: 30 }
cases:
  - id: refund
    prompt: Can I return order 42?
    expect:
      - contains: refundable
      - trajectory: [lookup_order, { name: check_policy, arguments: { sku: A-1 } }]
      - max_steps: 3
      - no_repeated_call: true
  - id: asks-twice
    prompt: Where is order 7?
    expect:
      - contains: shipped
      - trajectory: { in_order: [lookup_order] }
      - no_repeated_call: true
      - max_steps: 2
  - id: chat
    prompt: Can I return order 43?
    expect:
      - contains: refundable
    turns:
      - user: How long do I have?
        expect: [{ contains: 30 days }]
      - user: Thanks!
        expect: [{ contains: welcome }]
  - id: strict-chat
    prompt: Can I return order 44?
    stop_on_failure: true
    turns:
      - user: How long do I have?
        expect: [{ contains: 60 days }]
      - user: Thanks!
  - id: loops
    prompt: loop forever
    max_steps: 3
  - id: unanswerable
    prompt: escalate this
  - id: unmatched
    prompt: policy for B-3
`;

function script(prompt: string, n: number): Scripted {
  if (prompt === 'How long do I have?') return { text: 'You have 30 days.' };
  if (prompt === 'Thanks!') return { text: 'You are welcome.' };
  if (/^Can I return order 4\d\?$/.test(prompt))
    return (
      [call('lookup_order', { order: '42' }), call('check_policy', { sku: 'A-1' })][n] ?? {
        text: 'Yes: it is refundable within 30 days.',
      }
    );
  if (prompt === 'Where is order 7?')
    // Costs whose float sum carries noise past 1e-10 USD (0.000007599500000000001).
    return n === 0
      ? { ...call('lookup_order', { order: '7' }), cost: 0.000005635 }
      : n === 1
        ? { ...call('lookup_order', { order: '7' }), cost: 0.0000019645 }
        : { text: 'It has shipped.', cost: 0 };
  if (prompt === 'loop forever') return call('lookup_order', { order: '42' });
  if (prompt === 'escalate this') return call('escalate', {});
  if (prompt === 'policy for B-3') return call('check_policy', { sku: 'B-3' });
  return { text: 'no' };
}

const fixture = useToolProject(script, { 'suites/agent.yaml': SUITE });

describe('a case with tool_results', () => {
  it('runs as a loop until a text answer, answering each call with its canned result', async () => {
    const run = await runMain(['run', 'suites/agent.yaml', '--reporter', 'json'], {
      cwd: fixture.project.dir,
      env: TOOL_ENV,
    });
    // Three of the four cases end in an error of their own: the run fails.
    expect(run.code, run.stderr).toBe(1);
    const samples = new Map(
      (await readSamples(runDirFrom(run, fixture.project.dir))).map((s) => [s.case, s]),
    );

    const refund = samples.get('refund')!;
    expect(refund.status).toBe('pass');
    expect(refund.content).toBe('Yes: it is refundable within 30 days.');
    expect(refund.steps?.map((s) => s.finish_reason)).toEqual(['tool_calls', 'tool_calls', 'stop']);
    expect(refund.trajectory?.calls).toEqual([
      {
        step: 1,
        tool: 'lookup_order',
        arguments: '{"order":"42"}',
        result: '{"status":"shipped","sku":"A-1"}',
      },
      {
        step: 2,
        tool: 'check_policy',
        arguments: '{"sku":"A-1"}',
        result: '{"refundable":true,"window_days":30}',
      },
    ]);
    // Usage, latency and attempts are the conversation's: three requests of 30 tokens each.
    expect(refund.usage).toMatchObject({ prompt_tokens: 60, completion_tokens: 30, total_tokens: 90 });
    expect(refund.attempts).toBe(3);
    expect(refund.checks.map((c) => [c.type, c.pass])).toEqual([
      ['contains', true],
      ['trajectory', true],
      ['max_steps', true],
      ['no_repeated_call', true],
    ]);

    // The trajectory checks read every step: the same call twice is a loop, three steps are too many.
    const twice = samples.get('asks-twice')!;
    // The loop's cost is its steps' sum, rounded as every sum of costs is.
    expect(twice.usage!.cost).toBe(0.0000075995);
    expect(twice.status).toBe('fail');
    expect(Object.fromEntries(twice.checks.map((c) => [c.type, c.message]))).toEqual({
      contains: expect.stringContaining('shipped'),
      trajectory: 'lookup_order({"order":"7"}) → lookup_order({"order":"7"}) (in order)',
      no_repeated_call: 'lookup_order({"order":"7"}) called again',
      max_steps: 'expected at most 2 steps, took 3',
    });

    // What the service received: the assistant turn as it was sent, then the tool's result.
    const sent = fixture.server.bodies.filter(
      (b) => (b.messages as { content: string | null }[])[0]!.content === 'Can I return order 42?',
    );
    expect(sent).toHaveLength(3);
    expect((sent[2]!.messages as unknown[]).slice(1)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_0_0',
            type: 'function',
            function: { name: 'lookup_order', arguments: '{"order":"42"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_0_0', content: '{"status":"shipped","sku":"A-1"}' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_1_0',
            type: 'function',
            function: { name: 'check_policy', arguments: '{"sku":"A-1"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1_0', content: '{"refundable":true,"window_days":30}' },
    ]);
  });

  it('stops at max_steps, and at a call no rule answers, each a named error of the case', async () => {
    const run = await runMain(['run', 'suites/agent.yaml', '--reporter', 'json'], {
      cwd: fixture.project.dir,
      env: TOOL_ENV,
    });
    expect(run.code, run.stderr).toBe(1);
    const samples = new Map(
      (await readSamples(runDirFrom(run, fixture.project.dir))).map((s) => [s.case, s]),
    );

    const loops = samples.get('loops')!;
    expect(loops.status).toBe('error');
    expect(loops.error).toMatchObject({ kind: 'max_steps_reached' });
    expect(loops.error!.message).toContain('after 3 steps');
    expect(loops.steps).toHaveLength(3);
    expect(loops.trajectory!.calls.map((t) => t.tool)).toEqual([
      'lookup_order',
      'lookup_order',
      'lookup_order',
    ]);

    const unanswerable = samples.get('unanswerable')!;
    expect(unanswerable.error).toMatchObject({ kind: 'tool_result_missing' });
    expect(unanswerable.error!.message).toContain('escalate({})');
    expect(unanswerable.steps).toHaveLength(1);
    expect(unanswerable.trajectory).toEqual({
      steps: 1,
      calls: [{ step: 1, tool: 'escalate', arguments: '{}', result: null }],
    });

    // A rule whose `when` does not match is no answer either: B-3 matches neither rule.
    const unmatched = samples.get('unmatched')!;
    expect(unmatched.error).toMatchObject({ kind: 'tool_result_missing' });
    expect(unmatched.error!.message).toContain('check_policy({"sku":"B-3"})');
  });

  it('keeps the trajectory in report.json and the baseline, and a night that loops longer drifts', async () => {
    const only = ['--filter', 'refund', '--reporter', 'json'];
    fixture.server.rescript(script); // the script's step counts start again
    const first = await runMain(['run', 'suites/agent.yaml', ...only], {
      cwd: fixture.project.dir,
      env: TOOL_ENV,
    });
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const accept = await runMain(['baseline', 'accept', runDirFrom(first, fixture.project.dir)], {
      cwd: fixture.project.dir,
      env: TOOL_ENV,
    });
    expect(accept.code, accept.stderr).toBe(0);
    // Tonight the model looks the order up twice before it checks the policy.
    fixture.server.rescript((prompt, n) =>
      prompt === 'Can I return order 42?'
        ? ([
            call('lookup_order', { order: '42' }),
            call('lookup_order', { order: '42' }),
            call('check_policy', { sku: 'A-1' }),
          ][n] ?? {
            text: 'Yes: it is refundable within 30 days.',
          })
        : script(prompt, n),
    );
    const night = await runMain(['run', 'suites/agent.yaml', ...only, '--reporter', 'console,json'], {
      cwd: fixture.project.dir,
      env: TOOL_ENV,
    });
    fixture.server.rescript(script);
    const report = await readReport(runDirFrom(night, fixture.project.dir));
    const refund = report.cases.find((c) => c.case === 'refund')!;
    expect(refund.trajectory).toMatchObject({
      steps: 4,
      calls: [{ tool: 'lookup_order' }, { tool: 'lookup_order' }, { tool: 'check_policy' }],
    });
    expect(refund.drift.map((d) => [d.kind, d.severity, d.baseline, d.current])).toEqual(
      expect.arrayContaining([
        [
          'trajectory_changed',
          'warn',
          ['lookup_order', 'check_policy'],
          ['lookup_order', 'lookup_order', 'check_policy'],
        ],
      ]),
    );
    // One step more than the baseline's is within drift.steps' default tolerance (tool-loop-rates.cli.test.ts).
    expect(refund.drift.map((d) => d.kind)).not.toContain('steps_changed');
    // The checks still fail the loop itself: the same call twice.
    expect(night.code).toBe(1);
    expect(night.stdout + night.stderr).toContain(
      'trajectory changed: lookup_order → lookup_order → check_policy',
    );
  });

  it('runs scripted turns: each reply carried forward and checked by its own expect', async () => {
    fixture.server.rescript(script);
    const run = await runMain(['run', 'suites/agent.yaml', '--filter', '*chat', '--reporter', 'json'], {
      cwd: fixture.project.dir,
      env: TOOL_ENV,
    });
    const samples = new Map(
      (await readSamples(runDirFrom(run, fixture.project.dir))).map((s) => [s.case, s]),
    );
    const chat = samples.get('chat')!;
    expect(chat.status).toBe('pass');
    expect(chat.turns).toEqual([
      { user: null, content: 'Yes: it is refundable within 30 days.', finish_reason: 'stop' },
      { user: 'How long do I have?', content: 'You have 30 days.', finish_reason: 'stop' },
      { user: 'Thanks!', content: 'You are welcome.', finish_reason: 'stop' },
    ]);
    expect(chat.checks.map((c) => c.message)).toEqual([
      expect.stringMatching(/^turn 1: /),
      expect.stringMatching(/^turn 2: /),
      expect.stringMatching(/^turn 3: /),
    ]);
    // The first turn's tool loop took 3 steps, each later turn one.
    expect(chat.steps).toHaveLength(5);
    expect(chat.content).toBe('You are welcome.');
    // The last request carried the whole conversation: the loop, both replies, the new turn.
    const last = fixture.server.bodies.findLast(
      (b) => (b.messages as { content: string | null }[])[0]!.content === 'Can I return order 43?',
    )!;
    expect((last.messages as { role: string; content: string | null }[]).slice(-4)).toEqual([
      { role: 'assistant', content: 'Yes: it is refundable within 30 days.' },
      { role: 'user', content: 'How long do I have?' },
      { role: 'assistant', content: 'You have 30 days.' },
      { role: 'user', content: 'Thanks!' },
    ]);

    // stop_on_failure: the turn whose check fails ends it; the next is not sent, its checks not run.
    const strict = samples.get('strict-chat')!;
    expect(strict.status).toBe('fail');
    expect(strict.turns).toHaveLength(2);
    expect(strict.checks.map((c) => [c.pass, c.message.slice(0, 7)])).toEqual([[false, 'turn 2:']]);
    expect(strict.checks[0]!.message).toContain('60 days');
    expect(
      fixture.server.bodies.some(
        (b) =>
          (b.messages as { content: string | null }[])[0]!.content === 'Can I return order 44?' &&
          (b.messages as { content: string | null }[]).at(-1)!.content === 'Thanks!',
      ),
    ).toBe(false);
  });
});
