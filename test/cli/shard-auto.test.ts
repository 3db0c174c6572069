import { describe, expect, it } from 'vitest';
import { resolveShardAuto } from '../../src/cli/shard-auto.js';

describe('--shard auto', () => {
  it.each([
    [
      'a GitHub matrix (1-based, passed in)',
      { DRIFTCHECK_SHARD_INDEX: '2', DRIFTCHECK_SHARD_TOTAL: '4' },
      { index: 2, total: 4 },
    ],
    ['GitLab parallel (1-based)', { CI_NODE_INDEX: '3', CI_NODE_TOTAL: '3' }, { index: 3, total: 3 }],
    [
      'Buildkite parallelism (0-based)',
      { BUILDKITE_PARALLEL_JOB: '0', BUILDKITE_PARALLEL_JOB_COUNT: '5' },
      { index: 1, total: 5 },
    ],
    [
      'a Kubernetes Indexed Job (0-based, total given)',
      { JOB_COMPLETION_INDEX: '9', DRIFTCHECK_SHARD_TOTAL: '10' },
      { index: 10, total: 10 },
    ],
  ])('reads %s', (_name, env, shard) => {
    expect(resolveShardAuto(env)).toEqual(shard);
  });

  it.each([
    [
      'nothing to read',
      {},
      /no parallel-job variables found \(looked for DRIFTCHECK_SHARD_INDEX, CI_NODE_INDEX/,
    ],
    [
      'an index past the total',
      { CI_NODE_INDEX: '4', CI_NODE_TOTAL: '3' },
      /CI_NODE_INDEX=4 and CI_NODE_TOTAL=3/,
    ],
    ['an Indexed Job without its total', { JOB_COMPLETION_INDEX: '0' }, /DRIFTCHECK_SHARD_TOTAL=\(unset\)/],
  ])('refuses %s, saying what it looked for', (_name, env, message) => {
    expect(() => resolveShardAuto(env)).toThrow(message);
  });
});
