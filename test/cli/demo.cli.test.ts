import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/stored/report/types.js';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { copyFromRepo, makeProject, readReport, REPO, runDirFrom, type CliResult } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';
import { reportSchemaErrors } from '../helpers/report-schema.js';

// The README's demo: the shipped demo suites against the shipped baselines.
describe('the demo (npm start)', () => {
  let project: Awaited<ReturnType<typeof makeProject>>;
  let run: CliResult;
  let report: Report;

  beforeAll(async () => {
    project = await makeProject();
    await copyFromRepo(project.dir, 'suites/demo', 'baselines');
    run = await runMain(['run', '--sim', 'suites/demo'], { cwd: project.dir });
    report = await readReport(runDirFrom(run, project.dir));
  });
  afterAll(() => project.cleanup());

  it('prints the summary and exits 1 on what it caught', () => {
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /^29 cases · 19 passed · 6 failed · 4 errored · 0 not run · 10 regressed · 10 drifted · 38 samples/m,
    );
    // 12 requests in flight share one abort signal: Node must not call that a leak.
    expect(run.stderr).not.toMatch(/Warning/);
    expect(run.stdout).toMatch(/FAIL — failures, errors or regressions \(exit 1\)/);
    // The count line breaks between items, never between a label and its value (a reason
    // below it wraps at any space, "cost" included).
    const counts = /^\d+ cases · [\s\S]*?\n\n/m.exec(run.stdout)![0];
    expect(counts).toMatch(/(^| · )cost \$\d[\d.]*$/m);
    expect(counts).not.toMatch(/cost\n/);
  });

  it('keeps the baseline path relative in junit.xml and report.json, and costs carry $ in report.html', async () => {
    const dir = runDirFrom(run, project.dir);
    const junit = await readFile(join(dir, 'junit.xml'), 'utf8');
    expect(junit).toContain('<property name="baseline" value="baselines/support-demo.json"/>');
    expect(junit).not.toContain(project.dir);
    expect(report.suites.map((s) => s.baseline)).toEqual([
      'baselines/agent-demo.json',
      'baselines/direct-demo.json',
      'baselines/streaming-demo.json',
      'baselines/support-demo.json',
      'baselines/table-demo.json',
      'baselines/tools-demo.json',
    ]);
    const html = await readFile(join(dir, 'report.html'), 'utf8');
    expect(html).toMatch(/<dt>usage<\/dt><dd>[^<]* · cost \$\d/);
    expect(html).toMatch(/<dt>vs baseline<\/dt><dd>[^<]* · cost \$[\d.]+ → \$[\d.]+/);
  });

  it('the committed baseline answers the warranty question, not with the system prompt', async () => {
    const baseline = JSON.parse(await readFile(join(REPO, 'baselines/support-demo.json'), 'utf8'));
    const answer: string = baseline.cases.warranty.content;
    expect(answer).not.toContain('You are a support agent');
    expect(answer.toLowerCase()).toContain('warranty');
    // What the simulator answers on a night the case behaves is what the baseline holds.
    const suite = await readFile(join(REPO, 'suites/demo/support.yaml'), 'utf8');
    const behaving = await makeProject({
      'suites/demo/support.yaml': suite.replace(/\n\s+sim: \{ fault: empty_choices \}/, ''),
    });
    try {
      const night = await runMain(['run', '--sim', '--filter', 'warranty', '--reporter', 'json'], {
        cwd: behaving.dir,
      });
      const tonight = await readReport(runDirFrom(night, behaving.dir));
      expect(tonight.cases[0]?.content).toBe(answer);
    } finally {
      await behaving.cleanup();
    }
  });

  it('catches tool calls that miss their schema once the router moved the tool suite to DeepInfra', () => {
    const byCase = new Map(report.cases.map((c) => [`${c.suite}/${c.case}`, c]));
    const once = byCase.get('tools-demo/order-status')!;
    expect(once.status).toBe('fail');
    expect(once.checks.find((c) => c.type === 'tool_calls_valid')?.pass).toBe(false);
    expect(once.drift.map((d) => d.kind)).toEqual(expect.arrayContaining(['regressed', 'tool_call_invalid']));
    expect(once.provider).toBe('DeepInfra');
    const repeated = byCase.get('tools-demo/refund')!;
    expect(repeated.status).toBe('fail');
    const invalid = repeated.drift.find((d) => d.kind === 'tool_call_invalid');
    expect(invalid?.baseline).toEqual({ pass: 10, total: 10 });
    expect(invalid?.message).toMatch(/^valid-call rate 100% \(10\/10\) → \d+% \(\d\/10\), p = /);
    expect(byCase.get('tools-demo/opening-hours')).toMatchObject({ status: 'pass', drift: [] });
    expect(run.stdout).toMatch(/✗ tools-demo\/order-status fail · meta-llama\/llama-3\.3-70b-instruct/);
  });

  it('the committed tool baseline is what a behaving night answers: tools routed to Together, every call valid', async () => {
    const baseline = JSON.parse(await readFile(join(REPO, 'baselines/tools-demo.json'), 'utf8'));
    const suite = await readFile(join(REPO, 'suites/demo/tools.yaml'), 'utf8');
    const behaving = await makeProject({
      'suites/demo/tools.yaml': suite.replace(/\n\s+sim: \{[^}]*\}/g, ''),
    });
    try {
      const night = await runMain(['run', '--sim', '--reporter', 'json'], { cwd: behaving.dir });
      expect(night.code, night.stderr).toBe(0);
      const tonight = await readReport(runDirFrom(night, behaving.dir));
      for (const c of tonight.cases) {
        expect(c.provider).toBe('Together');
        const stored = baseline.cases[c.case];
        expect(stored.tool_calls.valid).toBe(stored.tool_calls.triggered);
        expect(c.tool_use).toMatchObject({
          answered: stored.tool_calls.answered,
          triggered: stored.tool_calls.triggered,
          valid: stored.tool_calls.valid,
          distinct: stored.tool_calls.distinct,
        });
      }
    } finally {
      await behaving.cleanup();
    }
  });

  it('catches an agent that loops, ignores a result or stops early once the router moved it off Moonshot AI', () => {
    const byCase = new Map(report.cases.map((c) => [`${c.suite}/${c.case}`, c]));
    const tools = (id: string) => byCase.get(id)!.trajectory?.calls.map((c) => c.tool);
    // Together called lookup_order again and again: the loop is stopped at the suite's max_steps.
    const loop = byCase.get('agent-demo/return-kettle')!;
    expect(loop).toMatchObject({
      status: 'error',
      provider: 'Together',
      error: { kind: 'max_steps_reached' },
    });
    expect(tools('agent-demo/return-kettle')).toEqual(Array(4).fill('lookup_order'));
    expect(loop.drift.map((d) => d.kind)).toEqual(expect.arrayContaining(['new_error', 'regressed']));
    // A loop past its bounds was answered at every step: what served it and the loop it took drift too.
    expect(loop.drift.map((d) => [d.kind, d.baseline, d.current])).toEqual(
      expect.arrayContaining([
        ['provider_changed', 'Moonshot AI', 'Together'],
        ['trajectory_changed', ['lookup_order', 'check_policy'], Array(4).fill('lookup_order')],
      ]),
    );
    // Its 4 steps (max_steps) are one beyond the baseline's 3: within drift.steps' default tolerance.
    expect(loop.drift.map((d) => d.kind)).not.toContain('steps_changed');
    // Fireworks made both calls, then answered without their words.
    const ignored = byCase.get('agent-demo/return-gift-card')!;
    expect(ignored).toMatchObject({ status: 'fail', provider: 'Fireworks' });
    expect(ignored.checks.filter((c) => !c.pass).map((c) => c.type)).toEqual(['contains']);
    expect(tools('agent-demo/return-gift-card')).toEqual(['lookup_order', 'check_policy']);
    expect(ignored.content).not.toMatch(/final sale/);
    // Chutes answered from the order alone: the trajectory check and the trajectory drift say so.
    const early = byCase.get('agent-demo/return-toaster')!;
    expect(early).toMatchObject({ status: 'fail', provider: 'Chutes' });
    expect(early.checks.filter((c) => !c.pass).map((c) => c.type)).toEqual(['contains', 'trajectory']);
    expect(early.drift.find((d) => d.kind === 'trajectory_changed')).toMatchObject({
      baseline: ['lookup_order', 'check_policy'],
      current: ['lookup_order'],
    });
    expect(early.drift.map((d) => d.kind)).toEqual(expect.arrayContaining(['regressed', 'provider_changed']));
    expect(byCase.get('agent-demo/order-status')).toMatchObject({ status: 'pass', drift: [] });
    expect(run.stdout).toMatch(
      /✗ agent-demo\/return-kettle error · moonshotai\/kimi-k2-thinking\n\s+step 4: max_steps_reached:/,
    );
    expect(run.stdout.replace(/\n\s+/g, ' ')).toMatch(
      /trajectory changed: lookup_order \(baseline: lookup_order → check_policy\)/,
    );
  });

  it('the committed agent baseline is what a behaving night answers: Moonshot AI, every flow played through', async () => {
    const baseline = JSON.parse(await readFile(join(REPO, 'baselines/agent-demo.json'), 'utf8'));
    const suite = await readFile(join(REPO, 'suites/demo/agent.yaml'), 'utf8');
    const behaving = await makeProject({
      'suites/demo/agent.yaml': suite.replace(/\n\s+sim: \{[^}]*\}/g, ''),
    });
    try {
      const night = await runMain(['run', '--sim', '--reporter', 'json'], { cwd: behaving.dir });
      expect(night.code, night.stderr).toBe(0);
      const tonight = await readReport(runDirFrom(night, behaving.dir));
      expect(tonight.cases).toHaveLength(4);
      for (const c of tonight.cases) {
        expect(c.provider).toBe('Moonshot AI');
        const stored = baseline.cases[c.case];
        expect(stored.status).toBe('pass');
        expect(c.trajectory).toEqual(stored.trajectory);
        expect(c.content).toBe(stored.content);
      }
    } finally {
      await behaving.cleanup();
    }
  });

  it('writes a report.json that validates against the shipped schema', () => {
    expect(reportSchemaErrors(report)).toEqual([]);
    expect(report.summary).toMatchObject({ cases: 29, samples: 38 });
  });

  it('catches the drift, the error hidden in a 200 body and the empty choices', () => {
    const byCase = new Map(report.cases.map((c) => [`${c.suite}/${c.case}`, c]));
    expect(byCase.get('support-demo/refund-window')?.drift.map((d) => d.kind)).toContain('regressed');
    expect(byCase.get('direct-demo/release-notes')?.drift.map((d) => d.kind)).toContain(
      'finish_reason_changed',
    );
    expect(byCase.get('support-demo/shipping-policy')?.error).toMatchObject({
      kind: 'body_error',
      http_status: 200,
    });
    expect(byCase.get('support-demo/warranty')?.error).toMatchObject({
      kind: 'empty_choices',
      http_status: 200,
    });
    for (const id of [
      'support-demo/greeting',
      'support-demo/order-json',
      'direct-demo/arithmetic',
      // Generated from the table-demo suite's CSV and JSONL rows, against their recorded baseline.
      'table-demo/sum-12-30',
      'table-demo/greet-ja',
    ]) {
      expect(byCase.get(id)).toMatchObject({ status: 'pass', drift: [] });
    }
  });
});
