/**
 * One `abort` listener per signal, fanning out to everyone waiting on it.
 *
 * A run hands one signal (abandon what is in flight) to every request it sends; with more
 * than ten in flight, a listener each made Node warn about a leak (MaxListenersExceededWarning)
 * — and raising the limit would only hide a real leak elsewhere. Here the signal carries a
 * single listener however many requests wait on it; each registers and releases a callback
 * in a Set, which costs no more than the listener did.
 */
const waiting = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `listener` once when `signal` aborts (at once, in a microtask, when it already
 * has). Returns the release: call it when no longer waiting, or the callback stays held
 * as long as the signal lives.
 */
export function onAbort(signal: AbortSignal, listener: () => void): () => void {
  if (signal.aborted) {
    let released = false;
    queueMicrotask(() => released || listener());
    return () => void (released = true);
  }
  let set = waiting.get(signal);
  if (!set) {
    const callbacks = new Set<() => void>();
    set = callbacks;
    waiting.set(signal, callbacks);
    signal.addEventListener(
      'abort',
      () => {
        waiting.delete(signal);
        // A copy: a callback may release itself (or another) while this loop runs.
        for (const callback of [...callbacks]) callback();
        callbacks.clear();
      },
      { once: true },
    );
  }
  set.add(listener);
  const entry = set;
  return () => void entry.delete(listener);
}

/** Waits `ms`; rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason as Error);
  return new Promise((resolve, reject) => {
    let release = (): void => {};
    const timer = setTimeout(() => {
      release();
      resolve();
    }, ms);
    if (signal)
      release = onAbort(signal, () => {
        clearTimeout(timer);
        reject(signal.reason as Error);
      });
  });
}
