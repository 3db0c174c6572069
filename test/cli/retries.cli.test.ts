import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/stored/report/types.js';
import type { SampleResult } from '../../src/stored/journal/records.js';
import { makeProject, readReport, readSamples, runDirFrom, type CliResult } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';

// Every case is rate limited once (Retry-After: 1 s), then answered.
const SUITE = `suite: busy
service: router
model: openai/gpt-4o-mini
cases:
${Array.from(
  { length: 8 },
  (_, i) =>
    `  - id: c${i}\n    prompt: "Say exactly: ok ${i}"\n    sim: { fault: rate_limited, retry_after_s: 1, fail_times: 1 }\n    expect: [{ contains: ok }]`,
).join('\n')}
  - id: routing-wait
    prompt: "Say exactly: ok routing"
    sim: { fault: routing, retry_after_s: 1, fail_times: 1 }
    expect: [{ contains: ok }]
  - id: never-retried
    prompt: hello
    sim: { fault: invalid_model }
    expect: [{ non_empty: true }]
`;

describe('retries that respect the service', () => {
  let project: Awaited<ReturnType<typeof makeProject>>;
  let run: CliResult;
  let report: Report;
  let samples: SampleResult[];

  beforeAll(async () => {
    project = await makeProject({ 'suites/busy.yaml': SUITE });
    run = await runMain(['run', '--sim', '--concurrency', '8'], { cwd: project.dir });
    report = await readReport(runDirFrom(run, project.dir));
    samples = await readSamples(runDirFrom(run, project.dir));
  });
  afterAll(() => project.cleanup());

  it('retries a 429 after Retry-After and records every attempt, wait apart from latency', () => {
    const busy = report.cases.filter((c) => c.case.startsWith('c'));
    expect(busy).toHaveLength(8);
    for (const c of busy) {
      expect(c.status).toBe('pass');
      expect(c.stats.attempts).toBe(2);
      expect(c.stats.wait_ms).toBeGreaterThanOrEqual(1000); // the service asked for 1 s
    }
    // Each attempt's error is in the journal, the run's per-sample record.
    const busySamples = samples.filter((s) => s.case.startsWith('c'));
    expect(busySamples).toHaveLength(8);
    for (const sample of busySamples)
      expect(sample.attempt_errors).toEqual([
        expect.objectContaining({ kind: 'rate_limited', http_status: 429 }),
      ]);
  });

  it("classifies the router's 503 with no provider for the routing rules as routing, and waits the Retry-After it sent", () => {
    const c = report.cases.find((x) => x.case === 'routing-wait')!;
    expect(c.status).toBe('pass');
    expect(c.stats.attempts).toBe(2);
    expect(c.stats.wait_ms).toBeGreaterThanOrEqual(1000);
    const sample = samples.find((s) => s.case === 'routing-wait')!;
    expect(sample.attempt_errors).toEqual([
      expect.objectContaining({
        kind: 'routing',
        http_status: 503,
        message: expect.stringMatching(/meets your routing requirements/),
      }),
    ]);
  });

  it('lowers the concurrency while the service rate limits', () => {
    expect(run.stderr).toMatch(/router is rate limiting — concurrency now 4/);
  });

  it('never retries what cannot succeed (an invalid model)', () => {
    const c = report.cases.find((x) => x.case === 'never-retried')!;
    expect(c.error?.kind).toBe('invalid_model');
    expect(c.stats.attempts).toBe(1);
  });
});
