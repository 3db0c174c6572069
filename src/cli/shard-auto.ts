import { UsageError } from '../util/errors.js';

/** Where each CI system says which parallel job this is: index base, index and total variables. */
const SOURCES = [
  // GitHub has no parallel-job index of its own: a matrix passes its values in, as the action does.
  {
    ci: 'GitHub Actions matrix (or any CI)',
    index: 'DRIFTCHECK_SHARD_INDEX',
    total: 'DRIFTCHECK_SHARD_TOTAL',
    base: 1,
  },
  { ci: 'GitLab (parallel:)', index: 'CI_NODE_INDEX', total: 'CI_NODE_TOTAL', base: 1 },
  {
    ci: 'Buildkite (parallelism:)',
    index: 'BUILDKITE_PARALLEL_JOB',
    total: 'BUILDKITE_PARALLEL_JOB_COUNT',
    base: 0,
  },
  // An Indexed Job knows its index, not the completion count: the total comes with DRIFTCHECK_SHARD_TOTAL.
  { ci: 'Kubernetes Indexed Job', index: 'JOB_COMPLETION_INDEX', total: 'DRIFTCHECK_SHARD_TOTAL', base: 0 },
] as const;

/**
 * `--shard auto`: this job's shard (1-based) from the CI's parallel-job variables. No
 * CI-detection library: what is needed is each CI's index and total variables, which none
 * of them exposes, and the names are few and documented.
 */
export function resolveShardAuto(env: NodeJS.ProcessEnv): { index: number; total: number } {
  for (const s of SOURCES) {
    const rawIndex = env[s.index];
    if (rawIndex === undefined || rawIndex === '') continue;
    const index = Number(rawIndex) + (1 - s.base);
    const total = Number(env[s.total]);
    if (!Number.isInteger(index) || !Number.isInteger(total) || total < 1 || index < 1 || index > total)
      throw new UsageError(
        `--shard auto: ${s.ci} says ${s.index}=${rawIndex} and ${s.total}=${env[s.total] ?? '(unset)'}, which is no shard of a whole\n  → set ${s.total} to the number of parallel jobs`,
      );
    return { index, total };
  }
  throw new UsageError(
    `--shard auto: no parallel-job variables found (looked for ${SOURCES.map((s) => s.index).join(', ')})\n  → pass --shard I/N, or set DRIFTCHECK_SHARD_INDEX and DRIFTCHECK_SHARD_TOTAL (GitHub matrix: from matrix values)`,
  );
}
