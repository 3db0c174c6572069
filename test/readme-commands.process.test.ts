import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, copyFromRepo, makeProject, REPO, runCli } from './helpers/cli.js';
import { startOpen } from './helpers/open.js';

// Every command README.md shows that runs on the embedded simulator is run here as written,
// in a copy of the repository's suites, baselines and config (or, for the install steps, in a
// folder `driftcheck init` set up), and must exit as README says. A command added to the
// README on the simulator without an entry here fails the first test.

const README = readFileSync(join(REPO, 'README.md'), 'utf8');

interface Expected {
  /** The exit code README gives for it. */
  exit: number;
  /** Where it runs: a copy of the repository's suites (default), or a folder `driftcheck init` wrote. */
  in?: 'repo' | 'init';
  /** Prints the demo's counts, as README's sample output shows them. */
  demoCounts?: boolean;
  /** Serves until stopped (driftcheck open): stopped once it prints its URL, exit 0. */
  serves?: boolean;
  /** Run first, for a command that reads `reports/latest`: the demo's run. */
  first?: string[];
  /** Its stdout is one JSON document (`--json`). */
  json?: boolean;
}

const DEMO = ['run', '--sim', 'suites/demo'];

const EXPECTED: Record<string, Expected> = {
  'npm start': { exit: 1, demoCounts: true },
  'driftcheck run --sim suites/demo': { exit: 1, demoCounts: true },
  'driftcheck run --sim': { exit: 1, demoCounts: true },
  'npx driftcheck run --sim': { exit: 0, in: 'init' },
  'driftcheck run --sim suites/demo --models openai/gpt-4o-mini,anthropic/claude-sonnet-4.5': { exit: 1 },
  'driftcheck run --sim --providers deepinfra,together,groq suites/demo/tools.yaml': { exit: 1 },
  'node bin/driftcheck.js --help': { exit: 0 },
  'node bin/driftcheck.js open': { exit: 0, serves: true },
  'node bin/driftcheck.js run --failed reports/latest': { exit: 1, first: DEMO },
  'node bin/driftcheck.js run --sim suites/demo --bail 2': { exit: 1 },
  'node bin/driftcheck.js run --sim suites/demo --json': { exit: 1, json: true },
  'node bin/driftcheck.js baseline accept reports/latest --dry-run': { exit: 0, first: DEMO },
};

/** Commands of README's `sh` blocks, each line's comment cut and split at `&&`. */
function blockCommands(): string[] {
  const out: string[] = [];
  for (const [, block] of README.matchAll(/```sh\n([\s\S]*?)```/g))
    for (const line of block!.split('\n'))
      for (const part of line.replace(/\s+#\s.*$/, '').split('&&')) if (part.trim()) out.push(part.trim());
  return out;
}

/** The block commands and the README's inline code that starts like a command. */
function readmeCommands(): string[] {
  const out = blockCommands();
  const prose = README.replace(/```[\s\S]*?```/g, '');
  for (const [, span] of prose.matchAll(/`([^`]+)`/g)) {
    const text = span!.replace(/\s+/g, ' ').trim();
    if (/^(driftcheck|npx driftcheck|node bin\/driftcheck\.js|npm start|npm run) ?/.test(text))
      out.push(text);
  }
  return [...new Set(out)];
}

/** A command runs on the simulator: `--sim`, the demo script, or the local binary (which the examples after it name `driftcheck`). */
const onSimulator = (command: string) =>
  /(^| )--sim( |$)/.test(command) || command === 'npm start' || command.startsWith('node bin/driftcheck.js');

/** The arguments of a command as the binary gets them; null when it is not a driftcheck call. */
function argsOf(command: string): string[] {
  if (command === 'npm start') {
    // What the start script runs after making sure dist/ is built.
    const start = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).scripts.start as string;
    const cli = start.split('&&').pop()!.trim();
    expect(cli.startsWith('node bin/driftcheck.js ')).toBe(true);
    return argsOf(cli);
  }
  const words = command.split(' ');
  const at = words[0] === 'npx' ? 2 : words[0] === 'node' ? 2 : 1;
  return words.slice(at);
}

describe("README's commands", () => {
  const commands = readmeCommands();

  it('every one that runs on the simulator has its expected exit here, and each here is in the README', () => {
    expect(commands.filter(onSimulator).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it('every suite or example file a command block or a simulator command names exists in the repository', () => {
    // Prose may name a suite of yours (`driftcheck pin suites/nightly.yaml`); a command shown to be typed may not.
    const shown = [...blockCommands(), ...commands.filter(onSimulator)];
    const paths = shown.flatMap((c) => c.split(' ').filter((w) => /^(suites|examples)\//.test(w)));
    expect(paths.length).toBeGreaterThan(3);
    for (const path of paths) expect(existsSync(join(REPO, path)), `${path} (README)`).toBe(true);
  });

  describe('run as written', () => {
    let project: Awaited<ReturnType<typeof makeProject>>;
    let initialised: Awaited<ReturnType<typeof makeProject>>;
    /** README's sample run's count line: what a newcomer must see. */
    const demoCounts = /^(29 cases · .* · 38 samples) ·$/m.exec(README)![1]!;

    beforeAll(async () => {
      project = await makeProject();
      await copyFromRepo(project.dir, 'suites', 'baselines', 'examples', 'driftcheck.config.yaml');
      initialised = await makeProject();
      expect((await runCli(['init'], { cwd: initialised.dir })).code).toBe(0);
    });
    afterAll(async () => {
      await project.cleanup();
      await initialised.cleanup();
    });

    it.each(Object.entries(EXPECTED))('%s', async (command, expected) => {
      const cwd = expected.in === 'init' ? initialised.dir : project.dir;
      const args = argsOf(command);
      expect(existsSync(BIN)).toBe(true);
      if (expected.serves) {
        // No browser opener on this PATH: it says so and serves on.
        const server = await startOpen(args.slice(1), { cwd, env: { PATH: '/nonexistent' } });
        expect((await fetch(server.url)).status).toBe(200);
        expect((await server.stop()).code).toBe(expected.exit);
        return;
      }
      if (expected.first) expect((await runCli(expected.first, { cwd })).code).toBe(1);
      const run = await runCli(args, { cwd });
      expect(run.code, run.stderr).toBe(expected.exit);
      if (expected.demoCounts) expect(run.stdout).toContain(demoCounts);
      if (expected.json) expect(JSON.parse(run.stdout).summary).toMatchObject({ cases: 29, failed: 6 });
    });
  });
});
