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
      /^18 cases · 12 passed · 4 failed · 2 errored · 0 not run · 6 regressed · 6 drifted · 27 samples/m,
    );
    // 12 requests in flight share one abort signal: Node must not call that a leak.
    expect(run.stderr).not.toMatch(/Warning/);
    expect(run.stdout).toMatch(/FAIL — failures, errors or regressions \(exit 1\)/);
    // The count line breaks between items, never between a label and its value.
    expect(run.stdout).toMatch(/(^| · )cost \$\d[\d.]*$/m);
    expect(run.stdout).not.toMatch(/cost\n/);
  });

  it('keeps the baseline path relative in junit.xml and report.json, and costs carry $ in report.html', async () => {
    const dir = runDirFrom(run, project.dir);
    const junit = await readFile(join(dir, 'junit.xml'), 'utf8');
    expect(junit).toContain('<property name="baseline" value="baselines/support-demo.json"/>');
    expect(junit).not.toContain(project.dir);
    expect(report.suites.map((s) => s.baseline)).toEqual([
      'baselines/direct-demo.json',
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

  it('writes a report.json that validates against the shipped schema', () => {
    expect(reportSchemaErrors(report)).toEqual([]);
    expect(report.summary).toMatchObject({ cases: 18, samples: 27 });
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
