import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readReport, readSamples, runCli, spawnCli } from '../helpers/cli.js';
import { reportSchemaErrors } from '../helpers/report-schema.js';
import {
  agentSuite,
  callOf as call,
  type Scripted,
  TOOL_ENV,
  useToolProject,
} from '../helpers/tool-server.js';

// The built binary interrupted (SIGINT) in the middle of two conversations, then resumed:
// the steps it paid for are journaled, the conversations are never judged by half, the
// resume says it sends them again from their first step and counts what they cost.
const SUITE = `${agentSuite('agent', 'lookup_order', 'check_policy')}tool_results:
  lookup_order: '{"status":"shipped","sku":"A-1","eta":"Friday"}'
  check_policy: '{"refundable":true}'
cases:
  - id: status
    prompt: Where is order 42?
    expect: [{ contains: Friday }, { trajectory: [lookup_order] }]
  - id: refund
    prompt: Can I return order 42?
    expect: [{ contains: refundable }, { trajectory: [lookup_order, check_policy] }]
  - id: hello
    prompt: Say hi
    expect: [{ contains: hi }]
`;

/** Every answer reports this cost: what was paid is counted in steps. */
const COST = 0.001;

/** The flow played through: each conversation's calls, then its text answer. */
function flow(prompt: string, n: number): Scripted {
  const steps: Record<string, Scripted[]> = {
    'Where is order 42?': [call('lookup_order', { order: '42' }), { text: 'It ships Friday.' }],
    'Can I return order 42?': [
      call('lookup_order', { order: '42' }),
      call('check_policy', { sku: 'A-1' }),
      { text: 'Yes: it is refundable.' },
    ],
  };
  return { ...(steps[prompt]?.[n] ?? { text: 'hi there' }), cost: COST };
}

const fixture = useToolProject(flow, { 'suites/agent.yaml': SUITE });

/** The journal's lines, parsed. */
async function journal(runDir: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(join(runDir, 'results.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('driftcheck run (the binary) stopped in the middle of a conversation, then resumed', () => {
  it('journals the steps paid for, never judges half a conversation, and restarts it from step 1 on --resume, its steps counted as spent', async () => {
    // Both conversations' first answers are held until the run has taken the signal.
    let release!: () => void;
    const released = new Promise<void>((done) => (release = done));
    let held = 0;
    let bothHeld!: () => void;
    const arrived = new Promise<void>((done) => (bothHeld = done));
    fixture.server.rescript(async (prompt, n) => {
      if (n === 0 && prompt !== 'Say hi') {
        if (++held === 2) bothHeld();
        await released;
      }
      return flow(prompt, n);
    });
    const { child, result } = spawnCli(
      ['run', 'suites/agent.yaml', '--concurrency', '3', '--max-cost', '1'],
      { cwd: fixture.project.dir, env: { ...TOOL_ENV, DRIFTCHECK_INTERRUPT_GRACE_S: '20' } },
    );
    let stderr = '';
    const signalled = new Promise<void>((done) =>
      child.stderr!.on('data', (d: Buffer) => {
        stderr += d;
        if (stderr.includes('no new requests')) done();
      }),
    );
    await arrived;
    child.kill('SIGINT');
    await signalled;
    // The held first steps are answered (in flight: paid for); the second steps are never sent.
    release();
    const first = await result;
    expect(first.code, first.stderr).toBe(130);
    const runDir = join(fixture.project.dir, /report: (.+)\/report\.json/.exec(first.stderr)![1]!);

    const lines = await journal(runDir);
    const steps = lines.filter((l) => l.type === 'step');
    // hello is a conversation too (the suite's tool_results): one step, which its sample follows.
    expect(steps.map((s) => [s.key, s.turn, s.step, (s.usage as { cost: number }).cost]).sort()).toEqual([
      ['agent/hello#0', 1, 1, COST],
      ['agent/refund#0', 1, 1, COST],
      ['agent/status#0', 1, 1, COST],
    ]);
    // What a step line holds: what it cost, never what it said.
    for (const step of steps) expect(step).not.toHaveProperty('content');
    expect((await readSamples(runDir)).map((s) => s.case)).toEqual(['hello']);
    const stopped = await readReport(runDir);
    expect(stopped.run.status).toBe('interrupted');
    expect(stopped.cases.map((c) => [c.id, c.status]).sort()).toEqual([
      ['agent/hello', 'pass'],
      ['agent/refund', 'not_run'],
      ['agent/status', 'not_run'],
    ]);
    expect(stopped.run.unjudged_steps).toEqual({
      conversations: 2,
      steps: 2,
      cost: 2 * COST,
      tokens: { prompt: 40, completion: 20, total: 60 },
    });
    expect(reportSchemaErrors(stopped)).toEqual([]);
    const summary = await readFile(join(runDir, 'summary.md'), 'utf8');
    expect(summary).toContain(
      '**Unjudged steps:** 2 steps of 2 conversations stopped part-way: paid for ($0.002, in the cost)',
    );
    // Their tokens are the run's as their cost is: 30 of the case that finished, 60 of the two steps.
    expect(summary).toMatch(/ · 90 tokens · cost \$0\.003/);
    expect(await readFile(join(runDir, 'report.html'), 'utf8')).toContain(
      '<dt>unjudged steps</dt><dd class="warn">2 steps of 2 conversations stopped part-way: paid for ($0.002, in the cost)',
    );
    const said = first.stdout.replace(/\n\s+/g, ' ');
    expect(said).toContain('cost $0.003');
    expect(said).toContain(
      '2 steps of 2 conversations stopped part-way: paid for ($0.002, in the cost), not judged',
    );

    fixture.server.rescript(flow);
    const sentBefore = fixture.server.bodies.length;
    const resumed = await runCli(['run', '--resume', runDir], { cwd: fixture.project.dir, env: TOOL_ENV });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(
      /driftcheck: 2 conversations stopped part-way restart from step 1 \(agent\/(status|refund)#0, agent\/(status|refund)#0\); 2 steps already paid for \(\$0\.002\) count as spent/,
    );
    // The cap counts them: hello's answer and the two steps paid before.
    expect(resumed.stderr).toContain('spent $0.003 so far');
    // Each conversation sent again from its first step: its first request holds its prompt alone.
    const sent = fixture.server.bodies.slice(sentBefore).map((b) => b.messages as { role: string }[]);
    expect(sent).toHaveLength(5);
    expect(sent.filter((m) => m.length === 1)).toHaveLength(2);

    const report = await readReport(runDir);
    expect(report.run.status).toBe('completed');
    const entries = new Map(report.cases.map((c) => [c.id, c]));
    expect(entries.get('agent/status')).toMatchObject({ status: 'pass', trajectory: { steps: 2 } });
    expect(entries.get('agent/refund')).toMatchObject({ status: 'pass', trajectory: { steps: 3 } });
    // Judged whole: each sample holds its whole conversation, from step 1, and nothing else.
    const samples = new Map((await readSamples(runDir)).map((s) => [s.case, s]));
    expect(samples.get('status')!.steps).toHaveLength(2);
    expect(samples.get('refund')!.steps).toHaveLength(3);
    expect(samples.get('refund')!.usage!.cost).toBeCloseTo(3 * COST, 10);
    // Spent: every answer of both sessions, the two steps stopped part-way included.
    expect(report.run.unjudged_steps).toEqual({
      conversations: 2,
      steps: 2,
      cost: 2 * COST,
      tokens: { prompt: 40, completion: 20, total: 60 },
    });
    expect(resumed.stdout.replace(/\n\s+/g, ' ')).toContain('cost $0.008');
  });
});
