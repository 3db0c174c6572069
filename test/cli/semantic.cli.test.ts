import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/stored/report/types.js';
import { makeProject, readReport, runDirFrom } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';

const CONFIG = `services:
  router: { kind: router, base_url: https://openrouter.ai/api/v1, api_key_env: OPENROUTER_API_KEY }
  direct: { kind: direct, base_url: https://direct.example/v1, api_key_env: DIRECT_API_KEY }
prices:
  kimi-k2-0905-preview: { prompt: 0.6, completion: 2.5 }
`;

function suite(replies: { policy: string; json: string }): string {
  return `suite: semantic
service: direct
model: kimi-k2-0905-preview
drift:
  content: { normalize: [whitespace, case] }
cases:
  - id: policy
    prompt: What is the refund window?
    sim: { reply: ${JSON.stringify(replies.policy)} }
    expect:
      - judge: { model: openai/gpt-4o-mini, service: router, rubric: 'must mention "30 days"' }
  - id: order
    prompt: Return the order as JSON.
    sim: { reply: ${JSON.stringify(replies.json)} }
    expect:
      - json_schema: { type: object, required: [order_id] }
`;
}

describe('judge, tolerant content comparison and prices', () => {
  let project: Awaited<ReturnType<typeof makeProject>>;
  let report: Report;
  let code: number | null;

  beforeAll(async () => {
    project = await makeProject({
      'driftcheck.config.yaml': CONFIG,
      'suites/semantic.yaml': suite({
        policy: 'Refunds within 30 days.',
        json: '{"order_id": "A-1", "status": "shipped"}',
      }),
    });
    await runMain(['run', '--sim', '--update-baselines', '--reporter', 'json'], { cwd: project.dir });
    // Tonight: the same policy reworded only in case and spacing; the JSON reordered, one value changed;
    // and a judge that now fails the policy answer of a second run below.
    await writeFile(
      join(project.dir, 'suites/semantic.yaml'),
      suite({ policy: 'REFUNDS   within 30 days.', json: '{"status": "pending",\n "order_id": "A-1"}' }),
    );
    const run = await runMain(['run', '--sim', '--reporter', 'json'], { cwd: project.dir });
    code = run.code;
    report = await readReport(runDirFrom(run, project.dir));
  });
  afterAll(() => project.cleanup());

  it('records the judge call like any other: verdict, concrete model, usage', () => {
    const policy = report.cases.find((c) => c.case === 'policy')!;
    const judge = policy.checks.find((c) => c.type === 'judge')!;
    expect(judge.pass).toBe(true);
    expect(judge.judge).toMatchObject({ model: 'openai/gpt-4o-mini', verdict: 'pass' });
    expect(judge.judge?.usage?.total_tokens).toBeGreaterThan(0);
    expect(code).toBe(0);
  });

  it('ignores a change of case and whitespace, and lists JSON value changes by path', () => {
    const policy = report.cases.find((c) => c.case === 'policy')!;
    expect(policy.drift.map((d) => d.kind)).not.toContain('content_changed');
    const order = report.cases.find((c) => c.case === 'order')!;
    const content = order.drift.find((d) => d.kind === 'content_changed')!;
    expect(content.message).toMatch(/status/);
    expect(content.message).toMatch(/shipped/);
    expect(content.message).not.toMatch(/order_id/);
  });

  it('prices a direct-service answer from the config when the service gives no cost', () => {
    const order = report.cases.find((c) => c.case === 'order')!;
    const u = order.usage!;
    expect(u.cost).toBeCloseTo((u.prompt_tokens! * 0.6 + u.completion_tokens! * 2.5) / 1e6, 12);
  });

  it('fails the case when the judge says the answer misses the rubric', async () => {
    await writeFile(
      join(project.dir, 'suites/semantic.yaml'),
      suite({ policy: 'Refunds within 14 days.', json: '{"order_id": "A-1"}' }),
    );
    const run = await runMain(['run', '--sim', '--reporter', 'json'], { cwd: project.dir });
    expect(run.code).toBe(1);
    const policy = (await readReport(runDirFrom(run, project.dir))).cases.find((c) => c.case === 'policy')!;
    expect(policy.status).toBe('fail');
    expect(policy.checks.find((c) => c.type === 'judge')).toMatchObject({
      pass: false,
      judge: { verdict: 'fail' },
    });
  });
});
