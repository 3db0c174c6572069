import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StepLine } from '../../src/stored/journal/records.js';
import { makeProject, readReport, readSamples, runDirFrom } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';
import {
  agentSuite,
  callOf as call,
  type Scripted,
  TOOL_ENV,
  toolConfig,
  useToolProject,
} from '../helpers/tool-server.js';

// A conversation's steps and what they cost: --max-cost counts each step as it is answered
// and stops a conversation part-way; the steps paid for are journaled, and a resumed run
// counts them as spent and sends the conversation again from its first step. A retry is
// of one step, never of the conversation.
const SUITE = `${agentSuite('agent', 'lookup_order', 'check_policy')}tool_results:
  lookup_order: '{"status":"shipped","sku":"A-1"}'
  check_policy: '{"refundable":true}'
cases:
  - id: refund
    prompt: Can I return order 42?
    expect: [{ contains: refundable }, { trajectory: [lookup_order, check_policy] }]
  - id: flaky
    prompt: Where is order 7?
    expect: [{ contains: shipped }]
`;

/** Every answer reports this cost. */
const COST = 0.001;

function script(prompt: string, n: number): Scripted {
  if (prompt === 'Can I return order 42?')
    return {
      ...([call('lookup_order', { order: '42' }), call('check_policy', { sku: 'A-1' })][n] ?? {
        text: 'Yes: it is refundable.',
      }),
      cost: COST,
    };
  // The second step fails once (a 503 the client retries), then answers.
  if (prompt === 'Where is order 7?')
    return n === 0
      ? call('lookup_order', { order: '7' })
      : n === 1
        ? { status: 503 }
        : { text: 'It has shipped.' };
  return { text: 'no' };
}

const fixture = useToolProject(script, { 'suites/agent.yaml': SUITE }, 1);

/** The journal's step lines. */
async function stepLines(runDir: string): Promise<StepLine[]> {
  const text = await readFile(join(runDir, 'results.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as StepLine)
    .filter((record) => record.type === 'step');
}

/** Requests the service received for the conversation, from `since`: how many messages each sent. */
const sentOf = (since: number) =>
  fixture.server.bodies
    .slice(since)
    .map((b) => b.messages as { content: string | null }[])
    .filter((m) => m[0]!.content === 'Can I return order 42?')
    .map((m) => m.length);

describe('a conversation under --max-cost, stopped and resumed', () => {
  it('pauses at the step that reaches the cap, counts the steps paid for on --resume and starts the conversation again', async () => {
    fixture.server.rescript(script);
    const opts = { cwd: fixture.project.dir, env: TOOL_ENV };
    // $0.0015: the first step ($0.001) is under it, the second reaches it, the third is never sent.
    const first = await runMain(
      ['run', 'suites/agent.yaml', '--filter', 'refund', '--concurrency', '1', '--max-cost', '0.0015'],
      opts,
    );
    expect(first.code, first.stderr).toBe(3);
    expect(first.stderr).toContain('paused: spent $0.002 of --max-cost $0.0015; 1 case not run');
    expect(sentOf(0)).toEqual([1, 3]);
    const runDir = runDirFrom(first, fixture.project.dir);
    expect((await stepLines(runDir)).map((s) => [s.key, s.turn, s.step, s.usage?.cost])).toEqual([
      ['agent/refund#0', 1, 1, COST],
      ['agent/refund#0', 1, 2, COST],
    ]);
    expect(await readSamples(runDir)).toEqual([]);
    expect((await readReport(runDir)).cases[0]!.status).toBe('not_run');

    // $0.004 with the $0.002 already paid: the conversation, sent again, reaches it at its second step.
    fixture.server.rescript(script);
    let since = fixture.server.bodies.length;
    const second = await runMain(['run', '--resume', runDir, '--max-cost', '0.004'], opts);
    expect(second.code, second.stderr).toBe(3);
    expect(second.stderr).toContain(
      'driftcheck: 1 conversation stopped part-way restart from step 1 (agent/refund#0); 2 steps already paid for ($0.002) count as spent',
    );
    expect(second.stderr).toContain('spent $0.002 so far');
    expect(second.stderr).toContain('paused: spent $0.004 of --max-cost $0.004; 1 case not run');
    expect(sentOf(since)).toEqual([1, 3]);

    fixture.server.rescript(script);
    since = fixture.server.bodies.length;
    const third = await runMain(['run', '--resume', runDir, '--max-cost', '0.01'], opts);
    expect(third.code, third.stderr).toBe(0);
    expect(third.stderr).toContain('2 steps already paid for ($0.002) count as spent');
    expect(third.stderr).toContain('spent $0.004 so far');
    expect(sentOf(since)).toEqual([1, 3, 5]);
    const [sample] = await readSamples(runDir);
    expect(sample).toMatchObject({ status: 'pass', steps: [{}, {}, {}] });
    const report = await readReport(runDir);
    expect(report.run.unjudged_steps).toEqual({
      conversations: 2,
      steps: 4,
      cost: 4 * COST,
      tokens: { prompt: 80, completion: 40, total: 120 },
    });
    // What the run spent: the three steps judged and the four paid for before.
    expect(third.stdout.replace(/\n\s+/g, ' ')).toContain('cost $0.007');
  });

  it('retries a step that failed, not the conversation: the step keeps its attempts', async () => {
    fixture.server.rescript(script);
    const since = fixture.server.bodies.length;
    const run = await runMain(['run', 'suites/agent.yaml', '--filter', 'flaky'], {
      cwd: fixture.project.dir,
      env: TOOL_ENV,
    });
    expect(run.code, run.stderr).toBe(0);
    const runDir = runDirFrom(run, fixture.project.dir);
    const [sample] = await readSamples(runDir);
    expect(sample!.steps!.map((s) => s.attempts)).toEqual([1, 2]);
    expect(sample!.attempts).toBe(3);
    expect((await stepLines(runDir)).map((s) => [s.step, s.attempts])).toEqual([
      [1, 1],
      [2, 2],
    ]);
    // The failed request was the second step's, sent again as it was: the first step went once.
    const sent = fixture.server.bodies
      .slice(since)
      .map((b) => (b.messages as { role: string }[]).map((m) => m.role).join(','));
    expect(sent).toEqual(['user', 'user,assistant,tool', 'user,assistant,tool']);
  });

  it("estimates a conversation before sending: at its most requests without a baseline, at its baseline's whole conversation with one", async () => {
    fixture.server.rescript(script);
    const own = await makeProject({
      'driftcheck.config.yaml': `${toolConfig(fixture.server.url)}prices:\n  openai/gpt-4o-mini: { prompt: 1, completion: 2 }\n`,
      'suites/agent.yaml': SUITE.replace('params:\n', 'params:\n  max_tokens: 100\n').replace(
        '    prompt: Can I return order 42?\n',
        '    prompt: Can I return order 42?\n    max_steps: 3\n',
      ),
    });
    try {
      const opts = { cwd: own.dir, env: TOOL_ENV };
      const args = ['run', 'suites/agent.yaml', '--filter', 'refund', '--max-cost'];
      // 3 requests of 100 answer tokens, each sending the prompt (6 + 4 tokens) and, for each
      // earlier one, its answer (100 + 4) and the longest tool result (8 + 4): 378 prompt tokens.
      const bound = await runMain([...args, '0.0001'], opts);
      expect(bound.code).toBe(2);
      expect(bound.stderr).toContain('the estimate for the run is $0.000978, over the cap; nothing was sent');
      expect(bound.stderr).toContain(
        "1 case from the prompt's length and max_tokens (an upper bound; 1 conversation at max_steps requests a turn, each answer and a tool result sent back)",
      );
      const accepted = await runMain(
        ['run', 'suites/agent.yaml', '--filter', 'refund', '--update-baselines'],
        opts,
      );
      expect(accepted.code, accepted.stderr).toBe(0);
      // The baseline's conversation took 3 steps at $0.001 each: a sample is estimated at that.
      fixture.server.rescript(script);
      const fromBaseline = await runMain([...args, '0.001'], opts);
      expect(fromBaseline.code).toBe(2);
      expect(fromBaseline.stderr).toContain('the estimate for the run is $0.003, over the cap');
      expect(fromBaseline.stderr).toContain("1 case from their baseline's cost");
    } finally {
      await own.cleanup();
    }
  });
});
