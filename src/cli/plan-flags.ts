import { UsageError } from '../util/errors.js';
import { parseShard } from '../run/plan.js';
import { type PlanOptions } from '../stored/journal/records.js';
import { MAX_REPEAT } from '../suite/repeat-limits.js';
import { resolveShardAuto } from './shard-auto.js';

/**
 * A run (or a `list`) of up to this many cases, all written inline, holds them from validation on (it
 * reads no suite twice); a larger one holds none and reads each suite again when it
 * reaches it, so memory does not grow with the number of cases. (Holding the first 10,000
 * of a 100,000-case run to its end cost 4–5 MB of live heap, and about 30 MB of peak RSS.)
 */
export const HELD_CASES = 10_000;

/** `--filter`, `--shard I/N|auto` and `--repeat N|auto` as the plan takes them: `run` and `list` read the same flags. */
export function selectionFlags(
  values: { filter?: string | undefined; shard?: string | undefined; repeat?: string | undefined },
  env: NodeJS.ProcessEnv,
): Pick<PlanOptions, 'filter' | 'shard' | 'repeat'> {
  return {
    ...(values.repeat ? { repeat: parseRepeat(values.repeat) } : {}),
    ...(values.filter ? { filter: values.filter } : {}),
    ...(values.shard
      ? { shard: values.shard === 'auto' ? resolveShardAuto(env) : parseShard(values.shard) }
      : {}),
  };
}

function parseRepeat(text: string): number | 'auto' {
  if (text === 'auto') return 'auto';
  const n = positiveInt('--repeat', text);
  if (n > MAX_REPEAT) throw new UsageError(`--repeat: at most ${MAX_REPEAT} (or auto), got ${n}`);
  return n;
}

/** A flag's whole number ≥ 1, or a usage error naming the flag and what it got. */
export function positiveInt(flag: string, text: string): number {
  return wholeNumberAtLeast(1, flag, text);
}

/** A flag's (or env value's) whole number of at least `min`, or a usage error naming it. */
function wholeNumberAtLeast(min: number, flag: string, text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min)
    throw new UsageError(`${flag} expects a whole number ≥ ${min}, got '${text}'`);
  return n;
}

/** An optional whole number ≥ 0 (`sim --latency-ms`, `DRIFTCHECK_SIM_LATENCY_MS`): null when not given. */
export function wholeNumber(flag: string, text: string | undefined): number | null {
  return text === undefined ? null : wholeNumberAtLeast(0, flag, text);
}
