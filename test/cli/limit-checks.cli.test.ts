import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaseEntry, Report } from '../../src/stored/report/types.js';
import { makeProject, readReport, runDirFrom, type CliResult } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';
import { reportSchemaErrors } from '../helpers/report-schema.js';

const SUITE = `suite: limits
service: router
model: openai/gpt-4o-mini
cases:
  - id: quick
    prompt: What is the refund window?
    expect:
      - max_latency_ms: 60000
      - max_cost: 0.01
  - id: slow
    prompt: Do you ship to Canada?
    sim: { delay_ms: 400 }
    expect:
      - max_latency_ms: 150
  - id: pricey
    prompt: How long is the warranty?
    expect:
      - max_cost: 0.0000001
`;

const DIRECT = `suite: direct-limits
service: direct
model: kimi-k2-0905-preview
cases:
  - id: unpriced
    prompt: What is 12 + 30?
    expect:
      - max_cost: 0.01
`;

const byId = (report: Report, id: string): CaseEntry => {
  const found = report.cases.find((c) => c.id === id);
  if (!found) throw new Error(`no case ${id}`);
  return found;
};

describe('checks max_latency_ms and max_cost', () => {
  let project: Awaited<ReturnType<typeof makeProject>>;
  let run: CliResult;
  let report: Report;

  beforeAll(async () => {
    project = await makeProject({ 'suites/limits.yaml': SUITE, 'suites/direct.yaml': DIRECT });
    run = await runMain(['run', '--sim'], { cwd: project.dir });
    report = await readReport(runDirFrom(run, project.dir));
  });
  afterAll(() => project.cleanup());

  it('fail a case whose answer took longer, or cost more, than the case allows, saying by how much', () => {
    expect(run.code, run.stderr).toBe(1);
    expect(byId(report, 'limits/quick')).toMatchObject({ status: 'pass' });
    const slow = byId(report, 'limits/slow');
    expect(slow.status).toBe('fail');
    const latency = slow.checks.find((c) => c.type === 'max_latency_ms');
    const took = Number(/it took (\d+) ms$/.exec(latency?.message ?? '')?.[1]);
    // The simulator held the answer 400 ms: the check read the sample's own latency.
    expect(latency?.message).toMatch(/^expected an answer within 150 ms, it took \d+ ms$/);
    expect(took).toBeGreaterThanOrEqual(400);
    expect(took).toBe(slow.stats.latency_ms?.p50);
    const pricey = byId(report, 'limits/pricey');
    expect(pricey.status).toBe('fail');
    expect(pricey.checks.find((c) => c.type === 'max_cost')?.message).toMatch(
      /^expected a cost of at most \$0\.0000001, the answer cost \$0\.0000\d+$/,
    );
    expect(run.stdout).toMatch(/✗ limits\/slow fail/);
    expect(run.stdout).toMatch(/max_cost: expected a cost of at most \$0\.0000001/);
    expect(reportSchemaErrors(report)).toEqual([]);
  });

  it('fail max_cost when nothing gives the answer a cost, and pass it once the config prices the model', async () => {
    const unpriced = byId(report, 'direct-limits/unpriced');
    expect(unpriced.status).toBe('fail');
    expect(unpriced.checks[0]?.message).toMatch(
      /no usage\.cost and the model has no price \(add it to prices:/,
    );
    await writeFile(
      join(project.dir, 'driftcheck.config.yaml'),
      [
        'services:',
        '  router: { kind: router, base_url: https://openrouter.ai/api/v1, api_key_env: OPENROUTER_API_KEY }',
        '  direct: { kind: direct, base_url: https://api.example.com/v1, api_key_env: DIRECT_API_KEY }',
        'prices:',
        '  kimi-k2-0905-preview: { prompt: 0.6, completion: 2.5 }',
        '',
      ].join('\n'),
    );
    const priced = await runMain(['run', '--sim', 'suites/direct.yaml'], { cwd: project.dir });
    expect(priced.code, priced.stderr).toBe(0);
    const tonight = await readReport(runDirFrom(priced, project.dir));
    expect(byId(tonight, 'direct-limits/unpriced').checks[0]?.message).toMatch(/^cost \$[\d.]+ ≤ \$0\.0100$/);
  });

  it('recheck reads the stored latency and cost: a loosened limit passes without sending anything', async () => {
    const file = join(project.dir, 'suites/limits.yaml');
    const text = await readFile(file, 'utf8');
    await writeFile(
      file,
      text
        .replace('max_latency_ms: 150', 'max_latency_ms: 60000')
        .replace('max_cost: 0.0000001', 'max_cost: 1'),
    );
    const recheck = await runMain(['recheck', runDirFrom(run, project.dir), 'suites/limits.yaml'], {
      cwd: project.dir,
    });
    expect(recheck.code, recheck.stderr).toBe(0);
    const again = await readReport(runDirFrom(recheck, project.dir));
    expect(byId(again, 'limits/slow').checks[0]?.message).toBe(
      `answered in ${byId(report, 'limits/slow').stats.latency_ms?.p50} ms ≤ 60000 ms`,
    );
  });

  it('refuses a limit that is no positive number at file:line:col', async () => {
    const bad = await makeProject({
      'suites/bad.yaml': SUITE.replace('max_latency_ms: 150', 'max_latency_ms: 0').replace(
        'max_cost: 0.01',
        'max_cost: cheap',
      ),
    });
    try {
      const validate = await runMain(['validate'], { cwd: bad.dir });
      expect(validate.code).toBe(2);
      expect(validate.stderr).toMatch(/suites\/bad\.yaml:14:25: .*max_latency_ms. must be > 0, got 0/);
      expect(validate.stderr).toMatch(/suites\/bad\.yaml:9:19: .*max_cost. must be a number, got text/);
    } finally {
      await bad.cleanup();
    }
  });
});
