import { describe, expect, it } from 'vitest';
import { reportFailure } from '../../src/cli/failure.js';
import { UsageError } from '../../src/util/errors.js';

function failing(error: unknown, env: NodeJS.ProcessEnv = {}) {
  let stderr = '';
  const code = reportFailure('run', error, { stderr: (t) => void (stderr += t), env });
  return { code, stderr };
}

const count = (text: string, part: string) => text.split(part).length - 1;

describe('the top-level catch writes the command prefix once', () => {
  it('a plain Error is an internal error (exit 70) with its stack, prefixed once', () => {
    const { code, stderr } = failing(new TypeError("Cannot read properties of undefined (reading 'model')"));
    expect(code).toBe(70);
    expect(stderr).toMatch(
      /^driftcheck run: internal error \(a bug — please report it\):\nTypeError: Cannot read/,
    );
    expect(stderr).toMatch(/\n\s+at /);
    expect(count(stderr, 'driftcheck run:')).toBe(1);
  });

  it('a thrown text that already carries the prefix is not prefixed again', () => {
    const { code, stderr } = failing('driftcheck run: internal error: boom');
    expect(code).toBe(70);
    expect(count(stderr, 'driftcheck run:')).toBe(1);
  });

  it('a known error keeps its exit code and one prefix, key-like env values redacted', () => {
    const key = 'sk-or-v1-0123456789abcdef0123';
    const { code, stderr } = failing(new UsageError(`driftcheck run: bad flag near ${key}`), {
      OPENROUTER_API_KEY: key,
    });
    expect(code).toBe(2);
    expect(stderr).toBe('driftcheck run: bad flag near [REDACTED]\n');
  });
});
