import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRawReport, readReport, runDirFrom } from '../helpers/cli.js';
import { reportSchemaErrors } from '../helpers/report-schema.js';
import { runMain } from '../helpers/main.js';
import {
  agentSuite,
  callOf as call,
  type Scripted,
  TOOL_ENV,
  useToolProject,
} from '../helpers/tool-server.js';
import { findAll, parseXml } from './xml.js';

// Where a conversation went wrong, in every text view a reviewer reads: the console,
// summary.md and junit.xml name the turn and the request (step) an error stopped it at,
// and a check that failed in a later turn names its turn.
const SUITE = `${agentSuite('agent', 'lookup_order', 'escalate')}tool_results:
  lookup_order: '{"status":"shipped"}'
cases:
  - id: loops
    prompt: loop forever
    max_steps: 2
  - id: escalates-later
    prompt: Where is order 42?
    turns:
      - user: Escalate this, please.
  - id: wrong-later
    prompt: Where is order 43?
    turns:
      - user: How long do I have?
        expect: [{ contains: 30 days }]
`;

function script(prompt: string, n: number): Scripted {
  if (prompt === 'loop forever') return call('lookup_order', { order: '1' });
  if (/^Where is order 4\d\?$/.test(prompt))
    // Each sample looks the order up, then answers.
    return n % 2 === 0 ? call('lookup_order', { order: '42' }) : { text: 'It has shipped.' };
  if (prompt === 'Escalate this, please.') return call('escalate', {});
  if (prompt === 'How long do I have?') return { text: 'You have 14 days.' };
  return { text: 'no' };
}

describe('a failing conversation names its turn and step', () => {
  const fixture = useToolProject(script, { 'suites/agent.yaml': SUITE });

  it('in the console, summary.md and junit.xml', async () => {
    const run = await runMain(['run', 'suites/agent.yaml', '--reporter', 'console,json,junit,markdown'], {
      cwd: fixture.project.dir,
      env: { ...TOOL_ENV, COLUMNS: '400' },
    });
    expect(run.code, run.stderr).toBe(1);
    const dir = runDirFrom(run, fixture.project.dir);
    // Turn 1 took two requests (the lookup, the answer); turn 2's first request called a tool no rule answers.
    const missing = 'turn 2, step 3: tool_result_missing: called escalate({})';
    const looped = 'step 2: max_steps_reached: still calling tools after 2 steps';
    const wrong = 'contains: turn 2: expected content to contain "30 days", got "You have 14 days."';
    for (const line of [missing, looped, wrong]) expect(run.stdout).toContain(line);

    const summary = await readFile(join(dir, 'summary.md'), 'utf8');
    const md = (s: string) => s.replace(/_/g, '\\_');
    for (const line of [missing, looped]) expect(summary).toContain(md(line));
    expect(summary).toContain('contains: turn 2: expected content to contain "30 days"');

    const cases = findAll(parseXml(await readFile(join(dir, 'junit.xml'), 'utf8')), 'testcase');
    const error = (name: string) =>
      cases.find((t) => t.attrs.name === name)!.children.find((c) => c.name === 'error')!;
    expect(error('escalates-later').attrs.message).toMatch(
      new RegExp(`^${missing.replace(/[()]/g, '\\$&')}`),
    );
    expect(error('escalates-later').text).toContain('error at: turn 2, step 3');
    expect(error('loops').attrs.message).toMatch(/^step 2: max_steps_reached: /);
    expect(error('loops').text).toContain('error at: step 2');
    const failure = cases
      .find((t) => t.attrs.name === 'wrong-later')!
      .children.find((c) => c.name === 'failure')!;
    expect(failure.attrs.message).toContain('contains: turn 2: expected content to contain "30 days"');
  });

  it('report.json keeps what the transcript reads: each request, each turn with its last request, the steps summed over samples', async () => {
    fixture.server.rescript(script);
    const run = await runMain(
      ['run', 'suites/agent.yaml', '--repeat', '2', '--concurrency', '1', '--reporter', 'json'],
      {
        cwd: fixture.project.dir,
        env: TOOL_ENV,
      },
    );
    expect(run.code, run.stderr).toBe(1);
    const dir = runDirFrom(run, fixture.project.dir);
    const report = await readReport(dir);
    expect(reportSchemaErrors(report)).toEqual([]);
    const byCase = new Map(report.cases.map((c) => [c.case, c]));
    const later = byCase.get('escalates-later')!;
    const step = { model: 'openai/gpt-4o-mini', latency_ms: expect.any(Number) };
    expect(later.conversation).toEqual({
      steps: [
        { ...step, finish_reason: 'tool_calls' },
        { ...step, finish_reason: 'stop' },
        { ...step, finish_reason: 'tool_calls' },
      ],
      turns: [
        { user: null, content: 'It has shipped.', finish_reason: 'stop', last_step: 2 },
        // A turn that ended calling tools keeps the content as it came: empty.
        { user: 'Escalate this, please.', content: '', finish_reason: 'tool_calls', last_step: 3 },
      ],
    });
    // Two samples of three requests each, of two each (max_steps 2).
    expect(later.stats.steps).toBe(6);
    expect(byCase.get('loops')!.stats.steps).toBe(4);
    expect(byCase.get('loops')!.conversation!.turns).toBeUndefined();
    // Written in each case line as it is (no rule restores it); a single request's line has no key (the golden demo).
    const raw = await readRawReport(dir);
    expect(raw.cases.map((c) => (c.conversation as { steps: unknown[] }).steps.length)).toEqual([2, 3, 3]);
  });
});
