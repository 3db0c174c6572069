import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, readReport, runDirFrom } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';
import { reportSchemaErrors } from '../helpers/report-schema.js';

const SUITE = `suite: support
service: router
model: openai/gpt-4o-mini
params: { max_tokens: 256, temperature: 0 }
system: You are a support agent for ACME.
cases:
  - id: greeting
    prompt: "Say exactly: Welcome to ACME!"
    expect:
      - equals: Welcome to ACME!
  - id: order-json
    prompt: Return the order as JSON with the fields order_id and status.
    expect:
      - json_schema: { type: object, required: [order_id, status] }
  - id: math
    prompt: What is 12 + 30?
    expect:
      - contains: "42"
`;

describe('baseline workflow on the simulator', () => {
  let project: Awaited<ReturnType<typeof makeProject>>;
  beforeAll(async () => {
    project = await makeProject({ 'suites/support.yaml': SUITE });
  });
  afterAll(() => project.cleanup());

  it('first run: every case is new, passes, and --update-baselines writes a reviewable baseline', async () => {
    const run = await runMain(['run', '--sim', '--update-baselines'], { cwd: project.dir });
    expect(run.code).toBe(0);
    const report = await readReport(runDirFrom(run, project.dir));
    expect(reportSchemaErrors(report)).toEqual([]);
    expect(report.summary).toMatchObject({ cases: 3, passed: 3, regressed: 0 });
    expect(report.cases.every((c) => c.drift.some((d) => d.kind === 'new_case'))).toBe(true);
    expect(report.cases.every((c) => c.model === 'openai/gpt-4o-mini')).toBe(true);
    const baseline = await readFile(join(project.dir, 'baselines/support.json'), 'utf8');
    expect(baseline.endsWith('\n')).toBe(true);
    expect(JSON.parse(baseline).cases.greeting.content).toBe('Welcome to ACME!');
    expect(baseline).toContain('\n  '); // pretty-printed for git diffs
  });

  it('second run: same answers, no drift, exit 0; reports/latest points at it', async () => {
    const run = await runMain(['run', '--sim'], { cwd: project.dir });
    expect(run.code).toBe(0);
    const runDir = runDirFrom(run, project.dir);
    const report = await readReport(runDir);
    expect(report.summary).toMatchObject({ passed: 3, drifted: 0, regressed: 0 });
    expect((await readReport(join(project.dir, 'reports/latest'))).run.id).toBe(report.run.id);
  });

  it('a regression against the baseline exits 1 and says what drifted', async () => {
    const drifted = SUITE.replace(
      'prompt: "Say exactly: Welcome to ACME!"',
      'prompt: "Say exactly: Welcome to ACME!"\n    sim: { reply: "Hello there." }',
    );
    await import('node:fs/promises').then((fs) =>
      fs.writeFile(join(project.dir, 'suites/support.yaml'), drifted),
    );
    const run = await runMain(['run', '--sim'], { cwd: project.dir });
    expect(run.code).toBe(1);
    const report = await readReport(runDirFrom(run, project.dir));
    const greeting = report.cases.find((c) => c.case === 'greeting')!;
    expect(greeting.status).toBe('fail');
    expect(greeting.drift.map((d) => d.kind)).toEqual(
      expect.arrayContaining(['regressed', 'content_changed']),
    );
    expect(report.summary.regressed).toBe(1);
    expect(run.stdout).toMatch(/support\/greeting/);
    expect(run.stdout).toMatch(/regressed/);
  });

  it('--model runs a candidate and diffs it against the current baseline', async () => {
    const run = await runMain(
      ['run', '--sim', '--model', 'anthropic/claude-sonnet-4.5', '--filter', 'math'],
      {
        cwd: project.dir,
      },
    );
    const report = await readReport(runDirFrom(run, project.dir));
    expect(report.run.candidate_model).toBe('anthropic/claude-sonnet-4.5');
    const math = report.cases.find((c) => c.case === 'math')!;
    expect(math.requested_model).toBe('anthropic/claude-sonnet-4.5');
    expect(math.model).toBe('anthropic/claude-sonnet-4.5');
    const changed = math.drift.find((d) => d.kind === 'model_changed');
    expect(changed).toMatchObject({
      severity: 'info',
      baseline: 'openai/gpt-4o-mini',
      current: 'anthropic/claude-sonnet-4.5',
    });
    expect(report.cases).toHaveLength(1); // --filter
    // A filtered run reports no missing cases (the candidate's cost change is shown, though).
    expect(report.suites[0]?.drift.map((d) => d.kind)).not.toContain('missing_case');
  });

  it('--models compares several candidates in one run, one column each', async () => {
    const run = await runMain(
      ['run', '--sim', '--models', 'openai/gpt-4o,anthropic/claude-sonnet-4.5', '--reporter', 'json'],
      {
        cwd: project.dir,
      },
    );
    expect(run.stdout).toMatch(/Candidates against the current baseline/);
    expect(run.stdout).toMatch(/openai\/gpt-4o .*anthropic\/claude-sonnet-4\.5/);
    expect(run.stdout).toMatch(/support\/greeting .*REGRESSED/);
    expect(run.stdout).toMatch(/cost .*\$/);
    expect(run.code).toBe(1);
    expect((run.stderr.match(/report: /g) ?? []).length).toBe(2); // one run folder per candidate
  });

  it('baseline accept promotes one case from a run', async () => {
    const run = await runMain(['run', '--sim'], { cwd: project.dir });
    const runDir = runDirFrom(run, project.dir);
    // A simulator run is accepted only with --force.
    const accept = await runMain(['baseline', 'accept', runDir, '--case', 'greeting', '--force'], {
      cwd: project.dir,
    });
    expect(accept.code).toBe(0);
    expect(accept.stdout).toContain('baselines/support.json');
    const baseline = JSON.parse(await readFile(join(project.dir, 'baselines/support.json'), 'utf8'));
    expect(baseline.cases.greeting.content).toBe('Hello there.');
    expect(baseline.cases.math.content).toContain('42');
    const again = await runMain(['run', '--sim'], { cwd: project.dir });
    expect(again.code).toBe(1); // greeting still fails its own expectation…
    const report = await readReport(runDirFrom(again, project.dir));
    expect(report.summary.regressed).toBe(0); // …but it is no longer a regression
  });

  it('diff compares two stored runs case by case', async () => {
    const runs = (await import('node:fs/promises').then((fs) => fs.readdir(join(project.dir, 'reports'))))
      .filter((d) => /^\d{8}T/.test(d))
      .sort();
    const diff = await runMain(['diff', `reports/${runs[1]}`, `reports/${runs[2]}`], { cwd: project.dir });
    expect(diff.code).toBe(1);
    expect(diff.stdout).toMatch(/support\/greeting · /);
    expect(diff.stdout).toMatch(/regressed/);
    const out = join(project.dir, 'diff-out');
    const rendered = await runMain(
      ['diff', `reports/${runs[1]}`, `reports/${runs[2]}`, '--reporter', 'json,html', '--out', out],
      {
        cwd: project.dir,
      },
    );
    expect(rendered.code).toBe(1);
    const report = await readReport(out);
    expect(reportSchemaErrors(report)).toEqual([]);
    expect(report.cases.find((c) => c.case === 'greeting')?.drift.map((d) => d.kind)).toContain('regressed');
    const html = await readFile(join(out, 'report.html'), 'utf8');
    expect(html).toContain('Content-Security-Policy');
  });
});

describe('aliases', () => {
  const ALIAS = `suite: latest\nservice: router\nmodel: ~anthropic/claude-opus-latest\ncases:\n  - id: a\n    prompt: "Say exactly: ok"\n    expect: [{ equals: ok }]\n`;

  it('refuses a ~latest alias with exit 2, naming file, line and how to pin it', async () => {
    const project = await makeProject({ 'suites/latest.yaml': ALIAS });
    try {
      const run = await runMain(['run', '--sim'], { cwd: project.dir });
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/latest\.yaml:3:\d+/);
      expect(run.stderr).toMatch(/driftcheck pin/);
      expect(run.stderr).toMatch(/--allow-alias/);
    } finally {
      await project.cleanup();
    }
  });

  it('runs it with --allow-alias and records the concrete model that answered', async () => {
    const project = await makeProject({ 'suites/latest.yaml': ALIAS });
    try {
      const run = await runMain(['run', '--sim', '--allow-alias'], { cwd: project.dir });
      expect(run.code).toBe(0);
      const report = await readReport(runDirFrom(run, project.dir));
      expect(report.cases[0]?.requested_model).toBe('~anthropic/claude-opus-latest');
      expect(report.cases[0]?.model).toMatch(/^anthropic\/claude-opus-\d/);
    } finally {
      await project.cleanup();
    }
  });
});

describe('validate and verify', () => {
  it('validate accepts good suites and rejects a bad one with file:line:column and exit 2', async () => {
    const project = await makeProject({
      'suites/good.yaml': `suite: good\nservice: router\nmodel: openai/gpt-4o-mini\ncases:\n  - id: a\n    prompt: hi\n    expect: [{ non_empty: true }]\n`,
    });
    try {
      const ok = await runMain(['validate'], { cwd: project.dir });
      expect(ok.code).toBe(0);
      expect(ok.stdout).toMatch(/1 suite, 1 case/);
      await import('node:fs/promises').then((fs) =>
        fs.writeFile(
          join(project.dir, 'suites/bad.yaml'),
          `suite: bad\nservice: router\nmodel: openai/gpt-4o-mini\ncases:\n  - id: a\n    prompt: hi\n    expects: [{ contains: x }]\n`,
        ),
      );
      const bad = await runMain(['validate'], { cwd: project.dir });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/bad\.yaml:7:5/);
      expect(bad.stderr).toMatch(/did you mean 'expect'/);
      const run = await runMain(['run', '--sim'], { cwd: project.dir });
      expect(run.code).toBe(2);
    } finally {
      await project.cleanup();
    }
  });

  it('validate rejects what run would reject: a judge on a service the config does not define', async () => {
    const project = await makeProject({
      'suites/judged.yaml': `suite: judged\nservice: router\nmodel: openai/gpt-4o-mini\ncases:\n  - id: a\n    prompt: hi\n    expect:\n      - judge: { model: openai/gpt-4o-mini, service: grader, rubric: 'says hi' }\n`,
    });
    try {
      for (const args of [['validate'], ['run', '--sim']]) {
        const result = await runMain(args, { cwd: project.dir });
        expect(result.code).toBe(2);
        expect(result.stderr).toMatch(/judged\.yaml:1:\d+: service 'grader' is not configured/);
        expect(result.stderr).toMatch(/add 'grader' under services:/);
      }
    } finally {
      await project.cleanup();
    }
  });

  it('verify --sim makes the first request on both services and prints what answered', async () => {
    const project = await makeProject({});
    try {
      const run = await runMain(['verify', '--sim'], { cwd: project.dir });
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(
        /router \(router\)[\s\S]*answered openai\/gpt-4o-mini[\s\S]*finish_reason: stop[\s\S]*verdict: ok/,
      );
      expect(run.stdout).toMatch(/direct \(direct\)[\s\S]*answered kimi-k2-0905-preview[\s\S]*verdict: ok/);
    } finally {
      await project.cleanup();
    }
  });

  it('verify reports a missing key as pre-flight with exit 2', async () => {
    const project = await makeProject({});
    try {
      const run = await runMain(['verify', '--service', 'router', '--model', 'openai/gpt-4o-mini'], {
        cwd: project.dir,
      });
      expect(run.code).toBe(2);
      expect(run.stdout).toMatch(/preflight[\s\S]*OPENROUTER_API_KEY/);
      expect(run.stdout).toMatch(/nothing was sent/);
    } finally {
      await project.cleanup();
    }
  });
});
