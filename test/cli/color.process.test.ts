import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { colorFor } from '../../src/cli/io.js';
import { makeProject, runCli } from '../helpers/cli.js';

const ESC = '\u001b[';

describe('colour: FORCE_COLOR as Node reads it, then NO_COLOR (no-color.org), then the terminal', () => {
  it.each([
    // [env, stdout is a terminal, colour]
    [{}, true, true],
    [{}, false, false],
    [{ TERM: 'dumb' }, true, false],
    [{ NO_COLOR: '1' }, true, false],
    // no-color.org: NO_COLOR set to the empty string does not turn colour off.
    [{ NO_COLOR: '' }, true, true],
    [{ FORCE_COLOR: '1' }, false, true],
    [{ FORCE_COLOR: '2' }, false, true],
    [{ FORCE_COLOR: '3' }, false, true],
    [{ FORCE_COLOR: 'true' }, false, true],
    [{ FORCE_COLOR: '' }, false, true],
    [{ FORCE_COLOR: '0' }, true, false],
    [{ FORCE_COLOR: 'false' }, true, false],
    // Node: any other value turns colour off.
    [{ FORCE_COLOR: '7' }, true, false],
    // Node: FORCE_COLOR set to a supported value wins over NO_COLOR (and over TERM=dumb).
    [{ FORCE_COLOR: '1', NO_COLOR: '1' }, false, true],
    [{ FORCE_COLOR: '1', TERM: 'dumb' }, false, true],
    [{ FORCE_COLOR: '0', NO_COLOR: '' }, true, false],
  ])('%j on a terminal: %s → colour %s', (env, tty, color) => {
    expect(colorFor(env, tty)).toBe(color);
  });

  describe('driftcheck run, its output piped (no terminal)', () => {
    let project: Awaited<ReturnType<typeof makeProject>>;
    const run = (env: NodeJS.ProcessEnv) =>
      runCli(['run', '--sim', '--reporter', 'console'], { cwd: project.dir, env });
    beforeAll(async () => {
      project = await makeProject({
        'suites/s.yaml': `suite: s
service: router
model: openai/gpt-4o-mini
cases:
  - id: wrong
    prompt: What is the refund window?
    expect: [{ contains: "90 days" }]
`,
      });
    });
    afterAll(() => project.cleanup());

    it('is coloured with FORCE_COLOR=1, even beside NO_COLOR, and plain with FORCE_COLOR=0 or without it', async () => {
      // runCli sets NO_COLOR=1 unless told otherwise.
      const forced = await run({ FORCE_COLOR: '1' });
      expect(forced.code).toBe(1);
      expect(forced.stdout).toContain(`${ESC}31m✗ s/wrong fail`);
      const plain = await run({ FORCE_COLOR: '0', NO_COLOR: '' });
      expect(plain.code).toBe(1);
      expect(plain.stdout).toContain('✗ s/wrong fail');
      expect(plain.stdout).not.toContain(ESC);
      const piped = await run({ NO_COLOR: '' });
      expect(piped.stdout).not.toContain(ESC);
      // What is not driftcheck's own colour is never passed through, coloured or not.
      expect(forced.stderr).not.toContain(ESC);
    });
  });
});
