import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, readReport, runDirFrom } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';

/**
 * A regex check compiles its pattern once and shares the RegExp between samples and
 * cases. A `g` flag's lastIndex must not carry over: after a match at 0 in "ok" it is 2,
 * and the next answer would be searched from there and fail.
 */
const suite = [
  'suite: shared-regex',
  'service: router',
  'model: openai/gpt-4o-mini',
  'repeat: 3',
  'cases:',
  '  - id: first',
  '    prompt: "Say exactly: ok"',
  '    expect: [{ regex: "/ok/g" }]',
  '  - id: second',
  '    prompt: "Say exactly: ok"',
  '    expect: [{ regex: "/ok/g" }, { regex: "/^ok$/y" }]',
  '  - id: refused',
  '    prompt: "Say exactly: ok"',
  '    sim: { fault: refusal }',
  '    expect: [{ regex: "/ok/g" }]',
  '',
].join('\n');

describe('a regex shared by samples and cases', () => {
  let project: Awaited<ReturnType<typeof makeProject>>;
  let run: Awaited<ReturnType<typeof runMain>>;

  beforeAll(async () => {
    project = await makeProject({ 'suites/shared.yaml': suite });
    run = await runMain(['run', '--sim'], { cwd: project.dir });
  });
  afterAll(() => project.cleanup());

  it('passes on every sample of every case that answers, with g and y flags', async () => {
    const report = await readReport(runDirFrom(run, project.dir));
    const byId = new Map(report.cases.map((c) => [c.case, c]));
    for (const id of ['first', 'second']) {
      expect(byId.get(id)!.samples).toMatchObject({ sent: 3, passed: 3, failed: 0, errored: 0 });
    }
  });

  it('checks a refusal as the answer it is, with the same compiled pattern', async () => {
    const report = await readReport(runDirFrom(run, project.dir));
    const refused = report.cases.find((c) => c.case === 'refused')!;
    expect(refused.error?.kind).toBe('refusal');
    expect(refused.checks).toEqual([expect.objectContaining({ type: 'regex', pass: false })]);
    expect(refused.checks[0]!.message).toMatch(/^expected content to match \/ok\/g/);
    expect(run.code).toBe(1);
  });
});
