import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, readReport, runDirFrom } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';
import type { Report } from '../../src/stored/report/types.js';

const ENV = { DRIFTCHECK_SIM_SEED: '7' };

/** Eight streamed questions sampled once, and one sampled five times; tonight the first token comes late on all. */
function suite(slow: boolean): string {
  const fault = slow ? ' [sim:stream_fault=slow_first_token]' : '';
  const lines = [
    'suite: chat',
    'service: router',
    'model: openai/gpt-4o-mini',
    'params: { max_tokens: 256, temperature: 0, stream: true }',
    'cases:',
  ];
  for (let i = 1; i <= 8; i++)
    lines.push(`  - id: q${i}`, `    prompt: "Question ${i} about refunds?${fault}"`);
  lines.push('  - id: repeated', `    prompt: "What is the refund window?${fault}"`, '    repeat: 5');
  return `${lines.join('\n')}\n`;
}

// A first token that came later tonight is named in the text views as a latency is: the
// console and summary.md list the repeated case with its ttft_changed message, and the
// suite's ttft_changed (its cases slower together, each sampled once) under the suite's drift.
describe('ttft_changed in the console and summary.md', () => {
  let project: Awaited<ReturnType<typeof makeProject>>;
  let stdout = '';
  let summary = '';
  let report: Report;

  beforeAll(async () => {
    project = await makeProject({ 'suites/chat.yaml': suite(false) });
    const first = await runMain(['run', '--sim', 'suites', '--update-baselines'], {
      cwd: project.dir,
      env: ENV,
    });
    expect(first.code, first.stderr).toBe(0);
    await writeFile(join(project.dir, 'suites/chat.yaml'), suite(true));
    const tonight = await runMain(['run', '--sim', 'suites'], { cwd: project.dir, env: ENV });
    stdout = tonight.stdout.replace(/\n\s+/g, ' ');
    const dir = runDirFrom(tonight, project.dir);
    summary = await readFile(join(dir, 'summary.md'), 'utf8');
    report = await readReport(dir);
  }, 60_000);
  afterAll(() => project?.cleanup());

  it("lists the suite's ttft_changed by its kind in the console and by its message in summary.md", () => {
    const drift = report.suites[0]!.drift.find((d) => d.kind === 'ttft_changed')!;
    expect(drift.severity).toBe('warn');
    expect(drift.message).toMatch(/^suite time to first token slower over 9 cases present in both/);
    expect(stdout).toContain(`! chat (suite) ttft_changed ${drift.message}`);
    expect(summary).toContain(`### Suite drift`);
    expect(summary).toContain(`- chat: ${drift.message}`);
  });

  it('lists the repeated case with its ttft_changed message in both', () => {
    const c = report.cases.find((x) => x.case === 'repeated')!;
    const drift = c.drift.find((d) => d.kind === 'ttft_changed')!;
    expect(drift.message).toMatch(/^time to first token slower: p50 \d+ → \d+ ms/);
    expect(stdout).toMatch(
      /! chat\/repeated pass 5\/5 · openai\/gpt-4o-mini .*time to first token slower: p50/,
    );
    expect(stdout).toContain(drift.message);
    const line = summary.split('\n').find((l) => l.startsWith('| `chat/repeated`'))!;
    expect(line).toContain('time to first token slower: p50');
  });
});
