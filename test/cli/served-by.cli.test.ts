import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, readReport, runDirFrom } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';
import { reportSchemaErrors } from '../helpers/report-schema.js';

/** A router suite whose case is served by `provider` tonight, and a case that refuses or answers. */
const suite = (provider: string, refuses: boolean): string =>
  [
    'suite: served',
    'service: router',
    'model: openai/gpt-4o-mini',
    'cases:',
    '  - id: routed',
    '    prompt: "Say exactly: ok"',
    `    sim: { provider: ${provider} }`,
    '    expect: [{ contains: ok }]',
    '  - id: sensitive',
    '    prompt: "Say exactly: ok sensitive"',
    ...(refuses ? ['    sim: { fault: refusal }'] : []),
    '    expect: [{ contains: ok }, { not_contains: "can\'t help" }]',
    '',
  ].join('\n');

describe('what served the answer, across nights', () => {
  let project: Awaited<ReturnType<typeof makeProject>>;
  let tonight: { code: number | null; stdout: string; dir: string };

  beforeAll(async () => {
    project = await makeProject({ 'suites/served.yaml': suite('OpenAI', false) });
    const first = await runMain(['run', '--sim', '--update-baselines'], { cwd: project.dir });
    expect(first.code).toBe(0);
    // Overnight the router sends the same model to another provider, and one case now refuses.
    await writeFile(join(project.dir, 'suites/served.yaml'), suite('Together', true));
    const run = await runMain(['run', '--sim'], { cwd: project.dir });
    tonight = { code: run.code, stdout: run.stdout, dir: runDirFrom(run, project.dir) };
  });
  afterAll(() => project.cleanup());

  it('records the provider and fingerprint in the baseline', async () => {
    const baseline = JSON.parse(await readFile(join(project.dir, 'baselines/served.json'), 'utf8'));
    expect(baseline.cases.routed).toMatchObject({
      provider: 'OpenAI',
      system_fingerprint: expect.stringMatching(/^fp_/),
    });
  });

  it('fails the night the provider changed, with provider_changed in every report', async () => {
    expect(tonight.code).toBe(1);
    const report = await readReport(tonight.dir);
    expect(reportSchemaErrors(report)).toEqual([]);
    const routed = report.cases.find((c) => c.case === 'routed')!;
    expect(routed.status).toBe('pass');
    expect(routed.providers).toEqual(['Together']);
    expect(routed.drift.map((d) => [d.kind, d.severity])).toEqual(
      expect.arrayContaining([
        ['provider_changed', 'fail'],
        ['fingerprint_changed', 'warn'],
      ]),
    );
    expect([...report.suites[0]!.providers].sort()).toEqual(['OpenAI', 'Together']);
    expect(tonight.stdout).toContain('provider changed: OpenAI → Together');
    for (const file of ['junit.xml', 'summary.md', 'report.html'])
      expect(await readFile(join(tonight.dir, file), 'utf8'), file).toContain(
        'provider changed: OpenAI → Together',
      );
  });

  it("keeps a refusal's text, checks it, and calls the change refused", async () => {
    const report = await readReport(tonight.dir);
    const sensitive = report.cases.find((c) => c.case === 'sensitive')!;
    expect(sensitive.status).toBe('error');
    expect(sensitive.error).toMatchObject({
      kind: 'refusal',
      message: "I'm sorry, but I can't help with that request.",
    });
    expect(sensitive.refusal).toBe("I'm sorry, but I can't help with that request.");
    // The checks ran against the refusal: not_contains says where it found the phrase.
    expect(sensitive.checks.map((c) => [c.type, c.pass])).toEqual([
      ['contains', false],
      ['not_contains', false],
    ]);
    expect(sensitive.drift.map((d) => d.kind)).toContain('refused');
  });
});
