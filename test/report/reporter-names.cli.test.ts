import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { COMMAND_HELP } from '../../src/cli/help.js';
import { runSuites } from '../../src/cli/run-suites.js';
import { simulateServices } from '../../src/cli/sim-setup.js';
import { defaultConfig } from '../../src/config/defaults.js';
import { simRequestHeaders } from '../../src/sim/protocol.js';
import { loadSuites } from '../../src/suite/load.js';
import { REPORTER_NAMES } from '../../src/report/outputs.js';
import { REPO } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';

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
    const run = await runMain(['run', '--help'], { cwd: REPO });
    expect(helpLists(run.stdout)).toEqual([REPORTER_NAMES]);
  });

  it('README lists the registry’s names where it documents --reporter', () => {
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    const said = [...readme.matchAll(/`--reporter LIST`\s+\(`([a-z,]+)`/g)].map((m) => listed(m[1]!));
    expect(said).toEqual([REPORTER_NAMES]);
  });

  it('a library run given no reporters writes what every reporter writes, but prints nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'driftcheck-reporters-'));
    const sim = await simulateServices(defaultConfig({}), {});
    const suites = await loadSuites([join(REPO, 'suites/demo/direct.yaml')], { cwd: REPO });
    const run = async (reporters: ReadonlySet<string> | undefined) => {
      let printed = '';
      const { files } = await runSuites({
        config: sim.config,
        suites,
        env: sim.env,
        reportDir: dir,
        baselineDir: join(REPO, 'baselines'),
        version: 'test',
        requestHeaders: simRequestHeaders,
        ...(reporters ? { reporters } : {}),
        console: { write: (text) => (printed += text), color: false },
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
      return { files: files.map((f) => basename(f)).sort(), printed };
    };
    try {
      const byDefault = await run(undefined);
      const every = await run(new Set(REPORTER_NAMES));
      expect(byDefault.files).toEqual(every.files);
      expect(byDefault.files).toContain('report.html');
      expect(byDefault.printed).toBe('');
      expect(every.printed).not.toBe('');
    } finally {
      await sim.simulator.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
