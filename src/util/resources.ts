/** One thing held open, and how it is let go. */
interface Held {
  release: () => unknown;
  /** Released only when the work fails (what a success keeps, a failure removes). */
  onFailure: boolean;
  /** Still to be released (an undo is dropped once the work it guards has succeeded). */
  live: boolean;
}

/**
 * What a piece of work holds open — a simulator, service clients, a folder's lock, an
 * interrupt watcher, spill files — let go in one place when the work ends, however it ends,
 * last acquired first. Node 20 has no `await using`: this is its AsyncDisposableStack.
 */
export class Resources {
  readonly #held: Held[] = [];

  /** Runs `work` with a scope of its own, and releases all it acquired when `work` ends. */
  static async using<T>(work: (scope: Resources) => Promise<T>): Promise<T> {
    const scope = new Resources();
    let result: T;
    try {
      result = await work(scope);
    } catch (error) {
      // The work's own error is what the caller sees: one from a release is let go.
      await scope.#release(true).catch(() => {});
      throw error;
    }
    await scope.#release(false);
    return result;
  }

  /** Holds `value` until the scope ends, then `release(value)`; returns `value`. */
  hold<T>(value: T, release: (value: T) => unknown): T {
    this.#held.push({ release: () => release(value), onFailure: false, live: true });
    return value;
  }

  /** Calls `release` when the scope ends. */
  defer(release: () => unknown): void {
    this.#held.push({ release, onFailure: false, live: true });
  }

  /**
   * Calls `undo` if the work fails before the returned `keep` is called: what a failure
   * leaves half made (partial report files, spills) is removed; once made, it is kept.
   */
  undoOnFailure(undo: () => unknown): () => void {
    const held: Held = { release: undo, onFailure: true, live: true };
    this.#held.push(held);
    return () => {
      held.live = false;
    };
  }

  /** Releases everything, last first; each is released even when one before it throws (the first error is thrown after). */
  async #release(failed: boolean): Promise<void> {
    let first: { error: unknown } | null = null;
    for (const held of this.#held.splice(0).reverse()) {
      if (!held.live || (held.onFailure && !failed)) continue;
      try {
        await held.release();
      } catch (error) {
        first ??= { error };
      }
    }
    if (first) throw first.error;
  }
}
