/** Items taken from the source ahead of the lanes that will start them: enough to keep every lane busy. */
const LOOKAHEAD = 1024;

/**
 * Starts work lane by lane (one lane per service), with at most `window(lane)` tasks of a
 * lane started and unfinished at a time; each finished task pulls the next queued one.
 * Items come from `source` as lanes have room (at most LOOKAHEAD queued ahead), so a plan
 * of any size holds a few dozen pending tasks and a bounded queue, never its whole list.
 * Items can also be pushed while it runs (adaptive sampling adds samples).
 */
export function createFeeder<T>(options: {
  start: (item: T) => Promise<void>;
  lane: (item: T) => string;
  window: (lane: string) => number;
  source?: Iterator<T>;
}) {
  const lanes = new Map<string, { queue: T[]; head: number; pending: number }>();
  let active = 0;
  let queued = 0;
  let source = options.source ?? null;
  let settle: { resolve: () => void; reject: (error: unknown) => void } | null = null;
  let failure: { error: unknown } | null = null;

  const finishIfIdle = () => {
    if (!settle) return;
    if (failure) settle.reject(failure.error);
    else if (active === 0 && source === null && [...lanes.values()].every((l) => l.head >= l.queue.length))
      settle.resolve();
  };

  const pump = (name: string) => {
    const lane = lanes.get(name)!;
    while (!failure && lane.pending < options.window(name) && lane.head < lane.queue.length) {
      const item = lane.queue[lane.head++]!;
      queued--;
      lane.pending++;
      active++;
      options.start(item).then(
        () => {
          lane.pending--;
          active--;
          refill();
          pump(name);
          finishIfIdle();
        },
        (error: unknown) => {
          active--;
          failure ??= { error };
          finishIfIdle();
        },
      );
    }
    // Drop what was consumed now and then, so the queue does not keep the whole plan alive.
    if (lane.head > 4096 && lane.head * 2 > lane.queue.length) {
      lane.queue.splice(0, lane.head);
      lane.head = 0;
    }
  };

  const enqueue = (item: T): string => {
    const name = options.lane(item);
    const lane = lanes.get(name) ?? { queue: [], head: 0, pending: 0 };
    lanes.set(name, lane);
    lane.queue.push(item);
    queued++;
    return name;
  };

  /** Takes items from the source until LOOKAHEAD are queued (or it runs out), and starts what lanes can. */
  const refill = () => {
    const touched = new Set<string>();
    while (source && queued < LOOKAHEAD) {
      const next = source.next();
      if (next.done) {
        source = null;
        break;
      }
      touched.add(enqueue(next.value));
    }
    for (const name of touched) pump(name);
  };

  return {
    push(item: T) {
      pump(enqueue(item));
    },
    /** Starts taking items from the source. */
    start() {
      refill();
      finishIfIdle();
    },
    /** Resolves once every pushed item has finished (rejects on the first unexpected error). */
    drained(): Promise<void> {
      return new Promise<void>((resolve, reject) => {
        settle = { resolve, reject };
        finishIfIdle();
      });
    },
  };
}
