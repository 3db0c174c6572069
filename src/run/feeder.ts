/**
 * Items taken from the source ahead of the lanes that will start them: enough to keep every
 * lane busy. Few: items waiting in the queue outlive young collections, and planned cases
 * made in a burst and held a while are what V8 learns to make straight in the old
 * generation (allocation-site pretenuring). With 1,024, a 100,000-row JSONL run promoted
 * 199-512 MB from run to run; with 128, 193-198 MB, and 20,000 instant cases take as long.
 */
const LOOKAHEAD = 128;

/**
 * Starts work lane by lane (one lane per service), with at most `window(lane)` tasks of a
 * lane started and unfinished at a time; each finished task pulls the next queued one.
 * Items come from `source` as lanes have room (at most LOOKAHEAD queued unstarted), so a plan
 * of any size holds a few dozen pending tasks and a bounded queue, never its whole list.
 * Items can also be pushed while it runs (adaptive sampling adds samples).
 */
export function createFeeder<T>(options: {
  start: (item: T) => Promise<void>;
  lane: (item: T) => string;
  window: (lane: string) => number;
  /** Where items come from: an async one (suites read as the run reaches them) is awaited item by item. */
  source?: { next(): IteratorResult<T> | Promise<IteratorResult<T>> };
}) {
  const lanes = new Map<string, { queue: (T | undefined)[]; head: number; pending: number }>();
  let active = 0;
  let queued = 0;
  let source = options.source ?? null;
  /** An async source's next item is on its way. */
  let pulling = false;
  let settle: { resolve: () => void; reject: (error: unknown) => void } | null = null;
  let failure: { error: unknown } | null = null;

  const finishIfIdle = () => {
    if (!settle) return;
    // Nothing new starts after a failure; what is in flight finishes (and is kept) first.
    if (failure && active === 0) settle.reject(failure.error);
    else if (failure) return;
    else if (
      active === 0 &&
      source === null &&
      !pulling &&
      [...lanes.values()].every((l) => l.head >= l.queue.length)
    )
      settle.resolve();
  };

  const pump = (name: string) => {
    const lane = lanes.get(name)!;
    while (!failure && lane.pending < options.window(name) && lane.head < lane.queue.length) {
      const item = lane.queue[lane.head]!;
      // Let go of a started item at once: the queue holds only what waits.
      lane.queue[lane.head++] = undefined;
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
    // Drop the emptied front now and then, so the queue does not grow with the whole plan.
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

  /** Queues one item the source gave and starts what its lane can; false once it has none left. */
  const take = (next: IteratorResult<T>): boolean => {
    if (next.done) {
      source = null;
      return false;
    }
    pump(enqueue(next.value));
    return true;
  };

  /**
   * Takes items from the source until LOOKAHEAD wait unstarted (or it runs out), starting
   * each as its lane has room: items a lane starts at once are not counted, so a lane wider
   * than the lookahead (a concurrency of 64 and more) still fills. An async source's item is
   * awaited, and taking goes on when it comes.
   */
  const refill = () => {
    if (pulling) return;
    while (source && queued < LOOKAHEAD && !failure) {
      const next = source.next();
      if (!(next instanceof Promise)) {
        if (!take(next)) break;
        continue;
      }
      pulling = true;
      next.then(
        (result) => {
          pulling = false;
          take(result);
          refill();
          finishIfIdle();
        },
        (error: unknown) => {
          // The source could not be read (a table changed since it was planned): the run stops here.
          pulling = false;
          source = null;
          failure ??= { error };
          finishIfIdle();
        },
      );
      break;
    }
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
