import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitFromEnv, gitInfo } from '../../src/history/git.js';

describe('gitFromEnv', () => {
  it.each([
    [
      { GITHUB_SHA: 'a1', GITHUB_REF_NAME: 'main' },
      { commit: 'a1', branch: 'main' },
    ],
    [
      { GITHUB_SHA: 'a1', GITHUB_REF_NAME: '7/merge', GITHUB_HEAD_REF: 'fix-x' },
      { commit: 'a1', branch: 'fix-x' },
    ],
    [
      { GITHUB_SHA: 'a1', GITHUB_REF_NAME: 'main', GITHUB_HEAD_REF: '' },
      { commit: 'a1', branch: 'main' },
    ],
    [
      { CI_COMMIT_SHA: 'g1', CI_COMMIT_REF_NAME: 'dev' },
      { commit: 'g1', branch: 'dev' },
    ],
    [
      { BUILDKITE_COMMIT: 'b1', BUILDKITE_BRANCH: 'nightly' },
      { commit: 'b1', branch: 'nightly' },
    ],
    [{}, { commit: null, branch: null }],
  ])('%o → %o', (env, want) => {
    expect(gitFromEnv(env)).toEqual(want);
  });
});

describe('gitInfo', () => {
  it('prefers CI variables and knows nothing outside a repository', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'driftcheck-git-'));
    try {
      expect(await gitInfo(gitFromEnv({ GITHUB_SHA: 'x', GITHUB_REF_NAME: 'y' }), dir)).toEqual({
        commit: 'x',
        branch: 'y',
      });
      expect(await gitInfo(gitFromEnv({}), dir)).toEqual({
        commit: null,
        branch: null,
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
