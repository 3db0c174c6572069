import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { COMMAND_HELP } from '../../src/cli/help.js';
import { runSuites } from '../../src/cli/run-suites.js';
import { simulateServices } from '../../src/cli/sim-setup.js';
import { defaultConfig } from '../../src/config/defaults.js';
import { simRequestHeaders } from '../../src/sim/protocol.js';
import { loadSuites } from '../../src/suite/load.js';
import { FILE_REPORTERS, REPORTER_NAMES } from '../../src/report/outputs.js';
import { REPO, runCli } from '../helpers/cli.js';

// The reporter registry (REPORTERS, src/report/outputs.ts) is the one list of reporters:
// what --help lists, the action's input, README and the library's default set read it.
const listed = (text: string) => text.split(',').map((s) => s.trim());
const helpLists = (help: string) =>
  [...help.matchAll(/--reporter LIST +([a-z,]+) /g)].map((m) => listed(m[1]!));

describe('reporter names come from the reporter registry', () => {
  it('action.yml offers and defaults to every reporter the registry has, and no other', () => {
    const action = parse(readFileSync(join(REPO, 'action.yml'), 'utf8')) as {
      inputs: { reporters: { description: string; default: string } };
    };
    expect(listed(action.inputs.reporters.description)).toEqual(REPORTER_NAMES);
    expect(listed(action.inputs.reporters.default)).toEqual(REPORTER_NAMES);
  });

  it('every --help that takes --reporter LIST lists the registry’s names', async () => {
    const lists = Object.entries(COMMAND_HELP).flatMap(([command, help]) =>
      helpLists(help).map((names) => [command, names] as const),
    );
    expect(lists.map(([command]) => command)).toEqual(['run', 'recheck']);
    for (const [, names] of lists) expect(names).toEqual(REPORTER_NAMES);
    // As the binary prints it.
    const run = await runCli(['run', '--help'], { cwd: REPO });
    expect(helpLists(run.stdout)).toEqual([REPORTER_NAMES]);
  });

  it('README lists the registry’s names where it documents --reporter', () => {
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    const said = [...readme.matchAll(/`--reporter LIST`\s+\(`([a-z,]+)`/g)].map((m) => listed(m[1]!));
    expect(said).toEqual([REPORTER_NAMES]);
  });

  it('a library run given no reporters writes every reporter’s file but prints nothing (no console)', async () => {
    expect([...FILE_REPORTERS]).toEqual(REPORTER_NAMES.filter((name) => name !== 'console'));
    const dir = await mkdtemp(join(tmpdir(), 'driftcheck-reporters-'));
    const sim = await simulateServices(defaultConfig({}), {});
    const printed: string[] = [];
    const write = process.stdout.write;
    process.stdout.write = ((chunk: string) => printed.push(String(chunk)) > 0) as typeof write;
    try {
      const suites = await loadSuites([join(REPO, 'suites/demo/direct.yaml')], { cwd: REPO });
      const { runDir } = await runSuites({
        config: sim.config,
        suites,
        env: sim.env,
        reportDir: dir,
        baselineDir: join(REPO, 'baselines'),
        version: 'test',
        requestHeaders: simRequestHeaders,
        meta: {
          command: ['lib'],
          paths: ['suites/demo/direct.yaml'],
          config_file: null,
          allow_alias: false,
          sim: true,
          plan: {},
          concurrency: null,
          update_baselines: false,
        },
      });
      const files = (await readdir(runDir)).filter((f) => !/^(results\.jsonl|run\.json|\..*)$/.test(f));
      expect(files.sort()).toEqual(['junit.xml', 'report.html', 'report.json', 'summary.md']);
    } finally {
      process.stdout.write = write;
      await sim.simulator.close();
      await rm(dir, { recursive: true, force: true });
    }
    expect(printed.join('')).not.toMatch(/passed|regressed/);
  });
});
