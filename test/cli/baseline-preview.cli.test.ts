import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFromRepo, makeProject, readTree, runDirFrom } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';

describe('baseline accept --dry-run, and the warning when accepting failing cases', () => {
  let project: Awaited<ReturnType<typeof makeProject>>;
  let runDir: string;
  const cli = (args: string[]) => runMain(args, { cwd: project.dir });

  beforeAll(async () => {
    project = await makeProject();
    await copyFromRepo(project.dir, 'suites/demo', 'baselines');
    // A suite with no baseline yet: accepting it adds every case.
    await writeFile(
      join(project.dir, 'suites/demo/fresh.yaml'),
      'suite: fresh\nservice: router\nmodel: openai/gpt-4o-mini\ncases:\n  - { id: one, prompt: "Say exactly: one", expect: [{ equals: one }] }\n  - { id: two, prompt: "Say exactly: two", expect: [{ equals: two }] }\n',
    );
    const run = await cli(['run', '--sim', 'suites/demo']);
    expect(run.code).toBe(1);
    runDir = runDirFrom(run, project.dir);
  });
  afterAll(() => project.cleanup());

  it('prints, per suite, the cases accepting would add, change (and in what), leave and keep, and writes nothing', async () => {
    const before = await readTree(join(project.dir, 'baselines'));
    const dry = await cli(['baseline', 'accept', runDir, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    const out = dry.stdout;
    expect(out).toContain(
      'suite support-demo (baselines/support-demo.json): model openai/gpt-4o-mini (unchanged); 0 added, 3 changed, 2 the same\n',
    );
    expect(out).toMatch(
      / {2}changed: refund-window \(status pass → fail; checks, content\), shipping-policy \(status pass → error; /,
    );
    expect(out).toContain(
      'suite table-demo (baselines/table-demo.json): model openai/gpt-4o-mini (unchanged); 0 added, 0 changed, 6 the same\n',
    );
    expect(out).toContain(
      'suite fresh (baselines/fresh.json): new baseline, model openai/gpt-4o-mini; 2 added, 0 changed, 0 the same\n  added: one, two\n',
    );
    // A simulator run needs --force to be accepted: the dry run says so, and shows it all the same.
    expect(out).toMatch(/accepting run \S+ needs --force: it is a simulator run \(--sim\)\n/);
    expect(out).toContain(
      'would accept 10 failing cases as the baseline (a later run that fails them the same way does not regress): agent-demo/return-kettle (error), agent-demo/return-gift-card (fail), agent-demo/return-toaster (fail), direct-demo/release-notes (fail), streaming-demo/order-status (error), support-demo/refund-window (fail), support-demo/shipping-policy (error), support-demo/warranty (error), tools-demo/order-status (fail), tools-demo/refund (fail)\n',
    );
    expect(out.endsWith('dry run: nothing written\n')).toBe(true);
    expect(await readTree(join(project.dir, 'baselines'))).toEqual(before);
  });

  it('--case narrows it; a case the run left out is kept, and said', async () => {
    const one = await cli(['baseline', 'accept', runDir, '--dry-run', '--case', 'support-demo/warranty']);
    expect(one.code).toBe(0);
    expect(one.stdout).toContain(
      'suite support-demo (baselines/support-demo.json): model openai/gpt-4o-mini (unchanged); 0 added, 1 changed, 0 the same, 4 kept (in the baseline, not in this run)\n',
    );
    expect(one.stdout).not.toContain('suite direct-demo');
    expect(one.stdout).toContain('would accept 1 failing case as the baseline');
  });

  it('accepting failing cases writes them and warns, listing them; accepting passing ones does not', async () => {
    const accepted = await cli(['baseline', 'accept', runDir, '--force']);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.stdout).toContain('baseline written: baselines/support-demo.json');
    expect(accepted.stderr).toContain(
      'warning: accepted 10 failing cases as the baseline (a later run that fails them the same way does not regress): agent-demo/return-kettle (error), agent-demo/return-gift-card (fail), agent-demo/return-toaster (fail), direct-demo/release-notes (fail)',
    );
    const clean = await cli(['baseline', 'accept', runDir, '--force', '--case', 'table-demo/sum-12-30']);
    expect(clean.code).toBe(0);
    expect(clean.stderr).not.toMatch(/warning/);
  });

  it('a recheck is refused even as a dry run (no baseline ever comes from it)', async () => {
    const recheck = await cli(['recheck', runDir]);
    const dry = await cli(['baseline', 'accept', runDirFrom(recheck, project.dir), '--dry-run']);
    expect(dry.code).toBe(2);
    expect(dry.stderr).toMatch(/no baseline is taken from it, not even with --force/);
  });
});
