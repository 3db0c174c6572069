import { describe, expect, it } from 'vitest';
import { makeProject, readReport, runDirFrom } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';

// A suite asks the simulator for a stream fault with `sim: { stream_fault, stream_fault_rate,
// stall_ms }`: validate accepts the keys and refuses an unknown fault where it is written, and
// the directive reaches the simulator (here through a run that does not stream: the
// error_after_content fault is then the documented partial answer with a choice error).

function suite(sims: string[]): string {
  const lines = ['suite: streams', 'service: router', 'model: openai/gpt-4o-mini', 'cases:'];
  sims.forEach((sim, i) => {
    lines.push(`  - id: case-${i + 1}`, '    prompt: "Say exactly: hello"', `    sim: ${sim}`);
    lines.push('    expect: [{ contains: hello }]');
  });
  return `${lines.join('\n')}\n`;
}

describe('stream faults in a suite', () => {
  it('validate accepts stream_fault, stream_fault_rate and stall_ms', async () => {
    const project = await makeProject({
      'suites/s.yaml': suite([
        '{ stream_fault: slow_first_token }',
        '{ stream_fault: stall, stall_ms: 500, stream_fault_rate: 0.5 }',
        '{ stream_fault: error_after_content, provider: OpenAI }',
      ]),
    });
    try {
      const result = await runMain(['validate'], { cwd: project.dir });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
    } finally {
      await project.cleanup();
    }
  });

  it('validate refuses an unknown stream fault at its line, naming the choices', async () => {
    const project = await makeProject({ 'suites/s.yaml': suite(['{ stream_fault: stutter }']) });
    try {
      const result = await runMain(['validate'], { cwd: project.dir });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/s\.yaml:7:\d+/);
      expect(result.stderr).toMatch(/slow_first_token/);
    } finally {
      await project.cleanup();
    }
  });

  it('run --sim without streaming: error_after_content is a body_error; cut changes nothing', async () => {
    const project = await makeProject({
      'suites/s.yaml': suite(['{ stream_fault: error_after_content }', '{ stream_fault: cut }']),
    });
    try {
      const result = await runMain(['run', '--sim'], { cwd: project.dir });
      expect(result.code).toBe(1);
      const report = await readReport(runDirFrom(result, project.dir));
      const [erred, cut] = report.cases;
      expect(erred?.status).toBe('error');
      expect(erred?.error?.kind).toBe('body_error');
      expect(erred?.error?.message).toMatch(/Provider disconnected unexpectedly/);
      expect(cut?.status).toBe('pass');
    } finally {
      await project.cleanup();
    }
  });
});
