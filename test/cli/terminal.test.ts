import { execFile, execFileSync } from 'node:child_process';
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
        expect(lines.filter((l) => /\d+\/27 samples/.test(l))).toEqual([
          expect.stringMatching(/100% 27\/27 samples/),
        ]);
        expect(lines.some((l) => /^FAIL — failures, errors or regressions \(exit 1\)$/.test(l))).toBe(true);
      } finally {
        await tmux(['kill-server']).catch(() => {});
      }
    },
  );
});
