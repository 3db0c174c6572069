import { execFile } from 'node:child_process';
import type { GitInfo } from '../stored/history/types.js';

/**
 * The commit and branch a run tested: from the CI's own variables (GitHub Actions, GitLab,
 * Buildkite, CircleCI), else `git rev-parse` in `cwd`, else unknown. CI variables win because
 * CI checkouts are often detached heads, where git itself cannot name the branch.
 */
export async function gitInfo(fromEnv: GitInfo, cwd: string): Promise<GitInfo> {
  if (fromEnv.commit && fromEnv.branch) return fromEnv;
  const commit = fromEnv.commit ?? (await git(['rev-parse', 'HEAD'], cwd));
  const head = fromEnv.branch ?? (await git(['rev-parse', '--abbrev-ref', 'HEAD'], cwd));
  return { commit, branch: head === 'HEAD' ? null : head };
}

/** The CI variables only (pure). */
export function gitFromEnv(env: NodeJS.ProcessEnv): GitInfo {
  const first = (...names: string[]): string | null => {
    for (const name of names) {
      const value = env[name]?.trim();
      if (value) return value;
    }
    return null;
  };
  return {
    commit: first('GITHUB_SHA', 'CI_COMMIT_SHA', 'BUILDKITE_COMMIT', 'CIRCLE_SHA1'),
    // On a pull request GITHUB_REF_NAME is `123/merge`; GITHUB_HEAD_REF names the branch.
    branch: first(
      'GITHUB_HEAD_REF',
      'GITHUB_REF_NAME',
      'CI_COMMIT_REF_NAME',
      'BUILDKITE_BRANCH',
      'CIRCLE_BRANCH',
    ),
  };
}

function git(args: string[], cwd: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, timeout: 5000 }, (error, stdout) => {
      const out = stdout.trim();
      resolve(error || !out ? null : out);
    });
  });
}
