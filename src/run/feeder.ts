/**
 * Starts work lane by lane (one lane per service), with at most `window(lane)` tasks of a
 * lane started and unfinished at a time; each finished task pulls the next queued one.
 * A 100,000-sample plan thus holds a few dozen pending tasks, not 100,000 waiting
 * closures. Items can be pushed while it runs (adaptive sampling adds samples).
 */
export function createFeeder<T>(options: {
  start: (item: T) => Promise<void>;
  lane: (item: T) => string;
  window: (lane: string) => number;
}) {
  const lanes = new Map<string, { queue: T[]; head: number; pending: number }>();
  let active = 0;
  let settle: { resolve: () => void; reject: (error: unknown) => void } | null = null;
  let failure: { error: unknown } | null = null;

  const finishIfIdle = () => {
    if (!settle) return;
    if (failure) settle.reject(failure.error);
    else if (active === 0 && [...lanes.values()].every((l) => l.head >= l.queue.length)) settle.resolve();
  };

  const pump = (name: string) => {
    const lane = lanes.get(name)!;
    while (!failure && lane.pending < options.window(name) && lane.head < lane.queue.length) {
      const item = lane.queue[lane.head++]!;
      lane.pending++;
      active++;
      options.start(item).then(
        () => {
          lane.pending--;
          active--;
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

  return {
    push(item: T) {
      const name = options.lane(item);
      const lane = lanes.get(name) ?? { queue: [], head: 0, pending: 0 };
      lanes.set(name, lane);
      lane.queue.push(item);
      pump(name);
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
