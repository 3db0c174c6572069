import type { UnjudgedSteps } from '../stored/report/types.js';
import { countOf, formatUsd } from '../util/numbers.js';

/**
 * The line a view shows of a run that stopped conversations part-way: their steps were paid
 * for (their cost is in the run's) and never judged. Null for a run that stopped none.
 */
export function unjudgedNote(unjudged: UnjudgedSteps | undefined): string | null {
  if (!unjudged) return null;
  const cost = unjudged.cost === null ? '' : ` (${formatUsd(unjudged.cost)}, in the cost)`;
  return `${countOf(unjudged.steps, 'step')} of ${countOf(unjudged.conversations, 'conversation')} stopped part-way: paid for${cost}, not judged (a conversation is judged whole, sent again from its first step)`;
}
