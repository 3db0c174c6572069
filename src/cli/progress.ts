import type { CaseResult } from '../types.js';

export interface ProgressOptions {
  write: (text: string) => void;
  /** An interactive terminal: one line redrawn in place. Otherwise plain lines (CI logs). */
  tty: boolean;
  now?: () => number;
}

export interface Progress {
  start(total: number, alreadyDone: number): void;
  update(result: CaseResult): void;
  finish(): void;
}

const BAR_WIDTH = 24;

/**
 * Shows how far a run is: a redrawn bar on a terminal (at most 10 redraws a second),
 * or, in CI, a plain line at every tenth of a run of 100+ samples (and at least every 10 s), so logs stay short.
 */
export function createProgress(options: ProgressOptions): Progress {
  const now = options.now ?? (() => performance.now());
  let total = 0;
  let done = 0;
  let failed = 0;
  let errored = 0;
  let startedAt = 0;
  let lastDraw = 0;
  let lastTenth = 0;
  const line = () => {
    const rate = done / Math.max(0.001, (now() - startedAt) / 1000);
    const percent = total ? Math.floor((done / total) * 100) : 100;
    return `${String(percent).padStart(3)}% ${done}/${total} samples · ${failed} failed · ${errored} errored · ${rate.toFixed(0)}/s`;
  };
  return {
    start(planned, alreadyDone) {
      total = planned - alreadyDone;
      startedAt = now();
      lastDraw = startedAt;
    },
    update(result) {
      done++;
      if (result.status === 'fail') failed++;
      if (result.status === 'error') errored++;
      const t = now();
      if (options.tty) {
        if (t - lastDraw < 100 && done < total) return;
        lastDraw = t;
        const filled = total ? Math.round((done / total) * BAR_WIDTH) : BAR_WIDTH;
        options.write(`\r[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${line()}\u001b[K`);
        return;
      }
      // A short run needs no progress lines in a log: its summary follows in a moment.
      if (total < 100) return;
      const tenth = Math.floor((done / total) * 10);
      if (tenth > lastTenth || t - lastDraw >= 10_000) {
        lastTenth = tenth;
        lastDraw = t;
        options.write(`driftcheck: ${line()}\n`);
      }
    },
    finish() {
      if (options.tty && done > 0) options.write('\n');
    },
  };
}
