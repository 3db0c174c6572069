import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFromRepo, makeProject, readRawReport, REPO, type CliResult } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';

const schema = (name: string) => JSON.parse(readFileSync(join(REPO, `schemas/${name}.schema.json`), 'utf8'));
const validate = new Ajv2020({ allErrors: true, strict: true, validateFormats: false })
  .addSchema(schema('report'))
  .compile(schema('run-output'));

describe('run --json: the run summary as one JSON document on stdout', () => {
  let project: Awaited<ReturnType<typeof makeProject>>;
  let run: CliResult;
  beforeAll(async () => {
    project = await makeProject();
    await copyFromRepo(project.dir, 'suites/demo', 'baselines');
    run = await runMain(['run', '--sim', 'suites/demo', '--json'], { cwd: project.dir });
  });
  afterAll(() => project.cleanup());

  it('stdout is that document alone, valid against schemas/run-output.schema.json; the console summary is on stderr', async () => {
    expect(run.code).toBe(1);
    const out = JSON.parse(run.stdout);
    expect(validate(out), JSON.stringify(validate.errors)).toBe(true);
    // report.json's own run and summary objects.
    const written = await readRawReport(join(project.dir, out.run_dir));
    expect(out.run).toEqual(written.run);
    expect(out.summary).toEqual(written.summary);
    expect(out.run.exit_code).toBe(1);
    expect(out.summary).toMatchObject({ cases: 29, passed: 19, failed: 6, errored: 4 });
    expect(out.files).toEqual(
      ['report.json', 'report.html', 'junit.xml', 'summary.md'].map((f) => `${out.run_dir}/${f}`),
    );
    for (const file of out.files) expect(existsSync(join(project.dir, file)), file).toBe(true);
    expect(out.baselines_written).toEqual([]);
    expect(run.stderr).toMatch(/^29 cases · 19 passed · 6 failed/m);
    expect(run.stderr).toContain('FAIL — failures, errors or regressions (exit 1)');
    expect(run.stdout).not.toContain('FAIL —');
  });

  it('lists the baselines --update-baselines wrote; prints nothing on stdout when the run is refused', async () => {
    const scratch = await makeProject({
      'suites/s.yaml':
        'suite: s\nservice: router\nmodel: openai/gpt-4o-mini\ncases:\n  - { id: a, prompt: "Say exactly: a", expect: [{ equals: a }] }\n',
    });
    try {
      const update = await runMain(['run', '--sim', '--json', '--update-baselines', '--reporter', 'json'], {
        cwd: scratch.dir,
      });
      expect(update.code, update.stderr).toBe(0);
      const out = JSON.parse(update.stdout);
      expect(validate(out)).toBe(true);
      expect(out.baselines_written).toEqual(['baselines/s.json']);
      expect(out.files).toEqual([`${out.run_dir}/report.json`]);
      const empty = await runMain(['run', '--sim', '--json', '--filter', 'nothing'], { cwd: scratch.dir });
      expect(empty.code).toBe(2);
      expect(empty.stdout).toBe('');
      const compared = await runMain(
        ['run', '--sim', '--json', '--models', 'openai/gpt-4o,openai/gpt-4o-mini'],
        {
          cwd: scratch.dir,
        },
      );
      expect(compared.code).toBe(2);
      expect(compared.stdout).toBe('');
      expect(compared.stderr).toMatch(
        /--json prints one run's summary; --models runs several and compares them in compare\.json/,
      );
    } finally {
      await scratch.cleanup();
    }
  });
});
