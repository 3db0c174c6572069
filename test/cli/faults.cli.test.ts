import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimFlavour } from '../../src/adapters/index.js';
import type { SimFault } from '../../src/suite/types.js';
import type { Report } from '../../src/stored/report/types.js';
import type { ErrorKind } from '../../src/core/answer.js';
import { makeProject, readReport, runDirFrom } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';
import { reportSchemaErrors } from '../helpers/report-schema.js';

// A short time-out so the simulator's "never answers" fault is classified in a second.
const CONFIG = `services:
  router: { kind: router, base_url: https://openrouter.ai/api/v1, api_key_env: OPENROUTER_API_KEY, timeout_s: 1, retries: 0 }
  direct: { kind: direct, base_url: https://direct.example/v1, api_key_env: DIRECT_API_KEY, timeout_s: 1, retries: 0 }
`;

/** Faults that are case errors on both services: the run goes on and exits 1. Each is recorded as its own kind. */
const SHARED: [SimFault, ErrorKind][] = (
  [
    'rate_limited',
    'body_error',
    'empty_choices',
    'empty_content',
    'timeout',
    'network',
    'bad_response',
    'server_error',
  ] as const
).map((fault) => [fault, fault]);
/** Routing exists on the routing service only. */
const CASE_FAULTS: Record<SimFlavour, [SimFault, ErrorKind][]> = {
  router: [['routing', 'routing'], ...SHARED],
  direct: SHARED,
};

/** Faults that stop the run: budget conditions pause (3), access failures stop (4). */
const STOP_FAULTS: [SimFlavour, SimFault, ErrorKind, number][] = [
  ['router', 'auth', 'auth', 4],
  ['router', 'permission', 'permission', 4],
  ['router', 'insufficient_credit', 'insufficient_credit', 3],
  ['router', 'budget_exceeded', 'budget_exceeded', 3],
  // The router has no separate "depleted": an exhausted account is a 402 like a key limit.
  ['router', 'depleted', 'insufficient_credit', 3],
  // The direct service has no credit notion of its own: an exhausted balance is "depleted".
  ['direct', 'insufficient_credit', 'depleted', 3],
  ['direct', 'auth', 'auth', 4],
  ['direct', 'permission', 'permission', 4],
  ['direct', 'budget_exceeded', 'budget_exceeded', 3],
  ['direct', 'depleted', 'depleted', 3],
];

const MODEL: Record<SimFlavour, string> = { router: 'openai/gpt-4o-mini', direct: 'kimi-k2-0905-preview' };

function suite(kind: SimFlavour, cases: { id: string; fault?: SimFault }[]): string {
  const lines = [`suite: faults-${kind}`, `service: ${kind}`, `model: ${MODEL[kind]}`, 'cases:'];
  for (const c of cases) {
    lines.push(`  - id: ${c.id}`, `    prompt: "Say exactly: hello ${c.id}"`);
    if (c.fault) lines.push(`    sim: { fault: ${c.fault} }`);
    lines.push('    expect: [{ contains: hello }]');
  }
  return `${lines.join('\n')}\n`;
}

describe.each(['router', 'direct'] as const)('every simulated fault on the %s service', (kind) => {
  let project: Awaited<ReturnType<typeof makeProject>>;
  let report: Report;
  let code: number | null;

  beforeAll(async () => {
    const cases = [
      { id: 'healthy' },
      ...CASE_FAULTS[kind].map(([fault]) => ({ id: fault.replace(/_/g, '-'), fault })),
    ];
    project = await makeProject({
      'driftcheck.config.yaml': CONFIG,
      [`suites/${kind}.yaml`]: suite(kind, cases),
    });
    const result = await runMain(['run', '--sim', '--concurrency', '16'], { cwd: project.dir });
    code = result.code;
    report = await readReport(runDirFrom(result, project.dir));
  });
  afterAll(() => project.cleanup());

  it('exits 1 and writes a report that validates against the shipped schema', () => {
    expect(code).toBe(1);
    expect(reportSchemaErrors(report)).toEqual([]);
    expect(report.run.status).toBe('completed');
  });

  it('still passes the healthy case', () => {
    expect(report.cases.find((c) => c.case === 'healthy')?.status).toBe('pass');
  });

  it.each(CASE_FAULTS[kind])('records fault %s as error kind %s', (fault, kind) => {
    const result = report.cases.find((c) => c.case === fault.replace(/_/g, '-'));
    expect(result?.status).toBe('error');
    expect(result?.error?.kind).toBe(kind);
    expect(result?.error?.model).toBeTruthy();
  });
});

describe.each(STOP_FAULTS)('%s fault %s', (kind, fault, errorKind, exitCode) => {
  it(`stops the run with exit ${exitCode}, the rest not run`, async () => {
    const project = await makeProject({
      'driftcheck.config.yaml': CONFIG,
      'suites/s.yaml': suite(kind, [{ id: 'first', fault }, { id: 'b' }, { id: 'c' }, { id: 'd' }]),
    });
    try {
      const result = await runMain(['run', '--sim', '--concurrency', '1'], { cwd: project.dir });
      expect(result.code).toBe(exitCode);
      const report = await readReport(runDirFrom(result, project.dir));
      expect(reportSchemaErrors(report)).toEqual([]);
      expect(report.run.stop_reason?.kind).toBe(errorKind);
      expect(report.summary.not_run).toBe(exitCode === 3 ? 4 : 3);
      expect(report.run.status).toBe('paused');
      if (exitCode === 3) expect(result.stderr).toMatch(/Resume with: driftcheck run --resume reports\//);
    } finally {
      await project.cleanup();
    }
  });
});

describe.each(['router', 'direct'] as const)('fault invalid_model on the %s service', (kind) => {
  it('stops that model, not the run: its other cases not run with the reason, exit 2 at the end', async () => {
    const other: SimFlavour = kind === 'router' ? 'direct' : 'router';
    const project = await makeProject({
      'driftcheck.config.yaml': CONFIG,
      'suites/s.yaml': suite(kind, [{ id: 'first', fault: 'invalid_model' }, { id: 'b' }, { id: 'c' }]),
      'suites/t.yaml': suite(other, [{ id: 'x' }, { id: 'y' }]),
    });
    try {
      const result = await runMain(['run', '--sim', '--concurrency', '1'], { cwd: project.dir });
      expect(result.code).toBe(2);
      const report = await readReport(runDirFrom(result, project.dir));
      expect(reportSchemaErrors(report)).toEqual([]);
      expect(report.run.status).toBe('completed');
      expect(report.run.stop_reason).toBeNull();
      expect(report.run.model_stops?.map((s) => [s.service, s.model, s.error.kind])).toEqual([
        [kind, MODEL[kind], 'invalid_model'],
      ]);
      const byId = new Map(report.cases.map((c) => [c.case, c]));
      expect(byId.get('first')?.status).toBe('error');
      for (const id of ['b', 'c']) {
        expect(byId.get(id)?.status).toBe('not_run');
        expect(byId.get(id)?.error?.kind).toBe('invalid_model');
      }
      // The other service's suite ran.
      expect([byId.get('x')?.status, byId.get('y')?.status]).toEqual(['pass', 'pass']);
    } finally {
      await project.cleanup();
    }
  });
});
