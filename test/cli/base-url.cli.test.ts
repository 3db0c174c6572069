import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, readReport, runDirFrom } from '../helpers/cli.js';
import { runMain, startSim } from '../helpers/main.js';

const KEY = `sk-or-v1-${'ab12'.repeat(16)}`;

/** A suite of several cases: a wrong base_url must stop at the first, not fail them all. */
const SUITE = `suite: wrong-url
service: router
model: openai/gpt-4o-mini
cases:
${Array.from({ length: 20 }, (_, i) => `  - id: c${i}\n    prompt: "Say exactly: ok ${i}"\n    expect: [{ contains: ok }]`).join('\n')}
`;

describe('a wrong base_url', () => {
  let sim: Awaited<ReturnType<typeof startSim>>;
  let project: Awaited<ReturnType<typeof makeProject>>;
  beforeAll(async () => {
    sim = await startSim();
    project = await makeProject({ 'suites/wrong.yaml': SUITE });
    // /api/v2 does not exist: the simulator answers 404 there, as a real server would.
    await writeFile(
      join(project.dir, 'driftcheck.config.yaml'),
      `services:\n  router: { kind: router, base_url: ${sim.url}/api/v2, api_key_env: OPENROUTER_API_KEY, retries: 0 }\n`,
    );
  });
  afterAll(async () => {
    await project.cleanup();
    await sim.stop();
  });

  it('stops the run at the first answer (exit 2) and says to check base_url, not invalid_model', async () => {
    const run = await runMain(['run', '--concurrency', '1'], {
      cwd: project.dir,
      env: { OPENROUTER_API_KEY: KEY },
    });
    expect(run.code).toBe(2);
    const flat = run.stdout.replace(/\s+/g, ' ');
    expect(flat).toMatch(
      /endpoint_not_found \(HTTP 404\): Unknown request URL: POST \/api\/v2\/chat\/completions; .*check the service's base_url/,
    );
    expect(run.stdout).not.toMatch(/invalid_model/);
    const report = await readReport(runDirFrom(run, project.dir));
    expect(report.run.stop_reason?.kind).toBe('endpoint_not_found');
    // One request told the story; the rest were not sent.
    expect(report.summary.not_run).toBeGreaterThanOrEqual(15);
  });

  it('verify says the same before anything else is sent', async () => {
    const verify = await runMain(['verify', '--model', 'openai/gpt-4o-mini'], {
      cwd: project.dir,
      env: { OPENROUTER_API_KEY: KEY },
    });
    expect(verify.code).toBe(2);
    expect(verify.stdout).toMatch(/verdict: endpoint_not_found \(HTTP 404\).*check the service's base_url/);
  });
});
