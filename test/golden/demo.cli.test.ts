import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyFromRepo, makeProject, REPO, runDirFrom } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';

// The demo's report.json, junit.xml and summary.md, byte for byte but for what differs from
// run to run (ids, clocks, latencies), against the files the last release wrote: a change of
// layout or a refactor must not change what users and CI read. An intended change of output
// writes them anew: DRIFTCHECK_UPDATE_GOLDEN=1 npx vitest run test/golden, then review the diff.
const GOLDEN = join(REPO, 'test/fixtures/golden/demo');
const FILES = ['report.json', 'junit.xml', 'summary.md'] as const;

/** What varies between two runs of the same seeded demo, replaced by a fixed token. */
function normalize(text: string): string {
  return (
    text
      .replace(/\d{8}T\d{6}(?:\d{3})?Z-[0-9a-f]{4}/g, 'RUN-ID')
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g, 'TIME')
      .replace(/"response_id":"[^"]*"/g, '"response_id":"ID"')
      .replace(/gen-\d+-[A-Za-z0-9]+/g, 'GEN-ID')
      .replace(/chatcmpl-[A-Za-z0-9-]+/g, 'CHATCMPL-ID')
      .replace(/call_[A-Za-z0-9]+/g, 'CALL-ID')
      .replace(/"latency_ms":\{[^{}]*\}/g, '"latency_ms":{}')
      .replace(/"latency_ms":\{"n":[^}]*\}/g, '"latency_ms":{}')
      // A conversation's requests, each with its own latency.
      .replace(/"latency_ms":\d+(?:\.\d+)?/g, '"latency_ms":N')
      .replace(/\btime="[\d.]+"/g, 'time="T"')
      // A streamed answer's timings, and the timing drift that compares them (latency, time to first token).
      .replace(/"(ttft_ms|tokens_per_s)":\{"n":[^}]*\}/g, '"$1":{}')
      .replace(/"p50": ?\d+(?:\.\d+)?,(\s*)"p95": ?\d+(?:\.\d+)?/g, '"p50":N,$1"p95":N')
      .replace(/\b(p50|p95) \d+(?:\.\d+)? → \d+(?:\.\d+)?( ms| tokens\/s)? \([+-]?\d+%\)/g, '$1 N → N$2 (P%)')
      .replace(/\b\d+(?:\.\d+)? ?ms\b/g, 'N ms')
  );
}

describe('the demo writes what it wrote before', () => {
  it('report.json, junit.xml and summary.md, but for ids, clocks and latencies', async () => {
    const project = await makeProject({});
    try {
      await copyFromRepo(project.dir, 'suites/demo', 'baselines', 'driftcheck.config.yaml');
      const run = await runMain(
        ['run', '--sim', 'suites/demo', '--concurrency', '1', '--reporter', 'json,junit,markdown'],
        { cwd: project.dir, env: { DRIFTCHECK_SIM_SEED: '7' } },
      );
      expect(run.code, run.stderr).toBe(1);
      const dir = runDirFrom(run, project.dir);
      for (const file of FILES) {
        const now = normalize(await readFile(join(dir, file), 'utf8'));
        if (process.env.DRIFTCHECK_UPDATE_GOLDEN === '1') {
          await mkdir(GOLDEN, { recursive: true });
          await writeFile(join(GOLDEN, file), now);
          continue;
        }
        expect(now, file).toBe(await readFile(join(GOLDEN, file), 'utf8'));
      }
    } finally {
      await project.cleanup();
    }
  });
});
