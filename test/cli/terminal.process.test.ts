import { execFile, execFileSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import stringWidth from 'string-width';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, copyFromRepo, makeProject } from '../helpers/cli.js';

// A real pseudo-terminal (tmux) at 80 and 120 columns: what a person sees, not what a pipe gets.
const exec = promisify(execFile);
const hasTmux = (() => {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
if (!hasTmux && process.env.CI) throw new Error('tmux is required in CI (.ci/run installs it)');
if (!hasTmux) console.warn('skipping the terminal tests: tmux is not installed (apt-get install tmux)');

/**
 * Runs `command` (in `cwd`) in a tmux pane `columns` wide and hands back the screen, every
 * line the terminal wrapped joined back into one (-J): an overflowing line comes back longer
 * than the pane. A tmux server of its own (-L) per call.
 */
async function inTerminal(cwd: string, command: string, columns: number): Promise<string[]> {
  const session = `driftcheck-${process.pid}-${columns}-${Math.random().toString(36).slice(2, 8)}`;
  const tmux = (args: string[], options = {}) => exec('tmux', ['-L', session, ...args], options);
  const done = `${cwd}/done-${session}`;
  await tmux(
    [
      'new-session',
      '-d',
      '-s',
      session,
      '-x',
      String(columns),
      '-y',
      '200',
      'sh',
      '-c',
      `cd ${cwd} && ${command}; touch ${done}; sleep 30`,
    ],
    { env: { ...process.env, TERM: 'xterm-256color', CI: '', NO_COLOR: '1' } },
  );
  try {
    for (let i = 0; i < 600; i++) {
      if (
        await exec('test', ['-e', done]).then(
          () => true,
          () => false,
        )
      )
        break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const { stdout: screen } = await tmux(['capture-pane', '-p', '-J', '-t', session, '-S', '-400']);
    return screen.split('\n').filter((l) => l.trim() !== '');
  } finally {
    await tmux(['kill-server']).catch(() => {});
  }
}

describe.runIf(hasTmux)('the console in a real terminal', () => {
  let project: Awaited<ReturnType<typeof makeProject>>;
  beforeAll(async () => {
    project = await makeProject({});
    await copyFromRepo(project.dir, 'suites/demo', 'baselines');
  });
  afterAll(() => project.cleanup());

  it.each([80, 120])(
    'at %i columns: no line wider than the terminal, one line per case, no stale progress',
    async (columns) => {
      const session = `driftcheck-${process.pid}-${columns}`;
      // A tmux server of this test's own (-L): with the shared default server, one test's
      // kill-session could end the server while the next was starting a session on it
      // ("server exited unexpectedly").
      const tmux = (args: string[], options = {}) => exec('tmux', ['-L', session, ...args], options);
      const done = `${project.dir}/done-${columns}`;
      const command = `cd ${project.dir} && node ${BIN} run --sim suites/demo --reporter console,json --concurrency 1; touch ${done}; sleep 30`;
      await tmux(
        ['new-session', '-d', '-s', session, '-x', String(columns), '-y', '60', 'sh', '-c', command],
        {
          env: { ...process.env, TERM: 'xterm-256color', CI: '', NO_COLOR: '1' },
        },
      );
      try {
        for (let i = 0; i < 200; i++) {
          if (
            await exec('test', ['-e', done]).then(
              () => true,
              () => false,
            )
          )
            break;
          await new Promise((r) => setTimeout(r, 100));
        }
        // -J joins a line the terminal wrapped back into one: an overflowing line comes back
        // longer than the pane (without it, tmux hands back pane-wide rows that always fit).
        const { stdout: screen } = await tmux(['capture-pane', '-p', '-J', '-t', session, '-S', '-200']);
        const lines = screen.split('\n').filter((l) => l.trim() !== '');
        for (const line of lines) expect(stringWidth(line.trimEnd()), line).toBeLessThanOrEqual(columns);
        // One line per case that failed or drifted, its reasons wrapped under it.
        expect(lines.filter((l) => /^✗ support-demo\/refund-window /.test(l))).toHaveLength(1);
        expect(lines.some((l) => l.startsWith('    '))).toBe(true);
        // The progress line was redrawn in place: it shows once, finished.
        expect(lines.filter((l) => /\d+\/38 samples/.test(l))).toEqual([
          expect.stringMatching(/100% 38\/38 samples/),
        ]);
        expect(lines.some((l) => /^FAIL — failures, errors or regressions \(exit 1\)$/.test(l))).toBe(true);
      } finally {
        await tmux(['kill-server']).catch(() => {});
      }
    },
  );

  it('at 80 columns the candidates table and the verdict lines fit, words whole', async () => {
    const lines = await inTerminal(
      project.dir,
      `node ${BIN} run --sim suites/demo --models openai/gpt-4o-mini,anthropic/claude-sonnet-4.5 --repeat 5 --reporter json`,
      80,
    );
    const table = lines.filter((l) => /^[┌│├└]/.test(l));
    expect(table.length).toBeGreaterThan(10);
    for (const line of lines) expect(stringWidth(line.trimEnd()), line).toBeLessThanOrEqual(80);
    // The table is as wide as the terminal allows, no wider: its columns share the width.
    expect(Math.max(...table.map((l) => stringWidth(l.trimEnd())))).toBe(80);
    // Each verdict line, joined back from its wrapped lines, is compare.json's verdict whole:
    // no word was cut.
    const folder = (await readdir(join(project.dir, 'reports'))).find((d) => d.startsWith('compare-'))!;
    const json = JSON.parse(await readFile(join(project.dir, 'reports', folder, 'compare.json'), 'utf8')) as {
      candidates: { label: string; verdict: { line: string } }[];
    };
    for (const c of json.candidates) {
      const at = lines.findIndex((l) => l.startsWith(`${c.label}: `));
      expect(at, c.label).toBeGreaterThan(-1);
      const rest = lines.slice(at + 1);
      const more = rest.slice(
        0,
        rest.findIndex((l) => !l.startsWith('  ')),
      );
      expect([lines[at]!, ...more].map((l) => l.trim()).join(' ')).toBe(`${c.label}: ${c.verdict.line}`);
    }
  });
});
