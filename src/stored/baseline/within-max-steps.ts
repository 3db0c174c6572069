import type { Samples } from '../../stats/samples.js';
import type { BaselineCase } from './types.js';

/**
 * A baseline case's samples of its tool loop's rate of finishing within max_steps: those it
 * keeps (a repeated case), else its one sample's — finished unless it errored — when it ran
 * as a conversation (it keeps a trajectory); null for any other case, and for a repeated
 * case accepted before driftcheck kept them.
 */
export function baselineWithin(
  c: Pick<Partial<BaselineCase>, 'within_max_steps' | 'samples' | 'trajectory' | 'status'>,
): Samples | null {
  if (c.within_max_steps) return c.within_max_steps;
  if (c.samples || c.trajectory == null) return null;
  return { pass: c.status === 'error' ? 0 : 1, total: 1 };
}
