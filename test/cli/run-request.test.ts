import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ProjectPaths } from '../../src/cli/project.js';
import { resolveRun } from '../../src/cli/run-request.js';
import { UsageError } from '../../src/util/errors.js';

// resolveRun in-process, without a file read: the project is a fake whose root is /proj and
// whose working folder is /proj/sub (a run started from a subfolder of the project).
const CWD = '/proj/sub';
const located: (string | undefined)[] = [];
const project = (configFlag: string | undefined): ProjectPaths => {
  located.push(configFlag);
  const root = configFlag !== undefined ? '/elsewhere' : '/proj';
  return {
    root,
    dir: (given, fallback) => (given !== undefined ? resolve(CWD, given) : resolve(root, fallback)),
    suites: () => resolve(root, 'suites'),
    history: (given, config) =>
      given !== undefined ? resolve(CWD, given) : config?.history ? resolve(root, config.history.dir) : null,
  };
};
const run = (args: string[], env: NodeJS.ProcessEnv = {}) => resolveRun(args, env, CWD, project);

describe('resolveRun: the command line as one request', () => {
  it('applies the defaults: the project’s folders, every reporter, nothing capped, a 10 s grace', () => {
    const request = run([]);
    expect(request).toMatchObject({
      command: ['driftcheck', 'run'],
      cwd: CWD,
      paths: [],
      configFile: undefined,
      resume: false,
      reportDir: '/proj/reports',
      baselineDir: '/proj/baselines',
      sim: false,
      allowAlias: false,
      service: undefined,
      candidates: null,
      selection: {},
      concurrency: null,
      updateBaselines: false,
      requireBaselines: false,
      bail: null,
      maxCost: undefined,
      ignoreEstimate: false,
      history: undefined,
      historyForce: false,
      reference: null,
      failed: null,
      json: false,
      graceMs: 10_000,
    });
    expect([...request.reporters].sort()).toEqual(['console', 'html', 'json', 'junit', 'markdown']);
    expect(request.project.suites()).toBe('/proj/suites');
  });

  it('parses every flag once: numbers, lists, paths resolved from the working folder', () => {
    const request = run(
      [
        'suites/a.yaml',
        '--config',
        '../other/driftcheck.config.yaml',
        '--sim',
        '--service',
        'direct',
        '--repeat',
        '3',
        '--concurrency',
        '2',
        '--filter',
        'a/*',
        '--shard',
        '2/4',
        '--bail',
        '5',
        '--max-cost',
        '$0.50',
        '--ignore-estimate',
        '--history',
        'nights',
        '--history-force',
        '--require-baselines',
        '--report-dir',
        'out',
        '--reporter',
        'json,junit',
        '--json',
        '--allow-alias',
      ],
      { DRIFTCHECK_INTERRUPT_GRACE_S: '2' },
    );
    expect(located.at(-1)).toBe('../other/driftcheck.config.yaml');
    expect(request).toMatchObject({
      paths: ['suites/a.yaml'],
      configFile: '../other/driftcheck.config.yaml',
      reportDir: '/proj/sub/out',
      baselineDir: '/elsewhere/baselines',
      sim: true,
      allowAlias: true,
      service: 'direct',
      selection: { repeat: 3, filter: 'a/*', shard: { index: 2, total: 4 } },
      concurrency: 2,
      bail: 5,
      maxCost: '$0.50',
      ignoreEstimate: true,
      history: '/proj/sub/nights',
      historyForce: true,
      requireBaselines: true,
      json: true,
      graceMs: 2000,
    });
    expect([...request.reporters]).toEqual(['json', 'junit']);
  });

  it('reads the candidates of --model, --models and --providers', () => {
    expect(run(['--model', 'a/one']).candidates).toEqual({
      flag: '--model',
      list: [{ model: 'a/one' }],
      compare: false,
    });
    expect(run(['--models', 'a/one, b/two,a/one']).candidates).toEqual({
      flag: '--models',
      list: [{ model: 'a/one' }, { model: 'b/two' }],
      compare: true,
    });
    expect(run(['--providers', 'groq,together', '--reference', '../night']).reference).toBe('/proj/night');
  });

  it('on --resume reads no selection flag: the run plans as it started (a --shard auto outside CI is no error)', () => {
    const request = run(['--resume', 'reports/r1', '--shard', 'auto', '--repeat', 'x', '--bail', '2']);
    expect(request).toMatchObject({ resume: true, paths: ['reports/r1'], selection: {}, bail: 2 });
    expect(request.candidates).toBeNull();
  });

  it('--failed keeps what this command line sets itself, so the rest is taken from that run', () => {
    expect(run(['--failed', '../reports/latest', '--repeat', '2']).failed).toEqual({
      dir: '/proj/reports/latest',
      shown: '../reports/latest',
      given: { candidate: false, service: false, repeat: true },
    });
    expect(run(['--failed', 'r', '--model', 'a/x', '--service', 'router']).failed?.given).toEqual({
      candidate: true,
      service: true,
      repeat: false,
    });
  });

  it.each([
    [['--models', 'a/x,b/y', '--json'], /--json prints one run's summary; --models runs several/],
    [['--reference', 'r'], /--reference RUN_DIR compares --models or --providers candidates/],
    [['--failed', 'r', '--resume'], /--failed RUN_DIR starts a new run .* --resume continues a run/],
    [['--bail', '2', '--update-baselines'], /--bail stops a run part-way/],
    [['--bail', '0'], /--bail expects a whole number ≥ 1, got '0'/],
    [['--concurrency', 'many'], /--concurrency expects a whole number ≥ 1/],
    [['--repeat', '0'], /--repeat expects a whole number ≥ 1/],
    [['--max-cost', '1e3'], /--max-cost expects an amount of US dollars above 0/],
    [['--reporter', 'pdf'], /--reporter: unknown reporter 'pdf'/],
    [['--models', 'a/x', '--resume'], /--models compares candidates against the current baseline/],
    [['--model', '~openai/gpt-latest'], /is a ~latest alias/],
  ])('refuses %j before anything is read', (args, message) => {
    expect(() => run(args)).toThrow(UsageError);
    expect(() => run(args)).toThrow(message);
  });

  it('refuses an unknown flag (parseArgs, strict)', () => {
    expect(() => run(['--dry-run'])).toThrow(/Unknown option '--dry-run'/);
  });
});
