import type { SampleResult } from '../stored/journal/records.js';

export interface ProgressOptions {
  write: (text: string) => void;
  /** An interactive terminal: one line redrawn in place. Otherwise plain lines (CI logs). */
  tty: boolean;
  /** The terminal's width: a redrawn line never wraps (a wrapped line leaves a stale copy on every redraw). */
  columns?: number | undefined;
  /**
   * Cuts the redrawn line to the terminal's width (report/terminal.ts); needed with `tty`
   * only. Given by the caller, so a run that is not on a terminal never loads what
   * measures terminal text (string-width: about 25 ms and 8 MB before the first request).
   */
  truncate?: (text: string, columns: number) => string;
  now?: () => number;
}

export interface Progress {
  start(total: number, alreadyDone: number): void;
  update(result: SampleResult): void;
  /**
   * Ends the line being redrawn, if one is on screen: called before anything else is
   * printed (the report, a message), so it never lands on the progress line. Safe to call
   * any number of times; a later update draws on a fresh line.
   */
  finish(): void;
}

const BAR_WIDTH = 24;
/** Narrower than this, the bar is left out and only the counts are drawn. */
const BAR_FROM_COLUMNS = 60;

/**
 * Shows how far a run is: a redrawn bar on a terminal (at most 10 redraws a second),
 * or, in CI, a plain line at every tenth of a run of 100+ samples (and at least every 10 s), so logs stay short.
 */
export function createProgress(options: ProgressOptions): Progress {
  const truncate = options.truncate;
  if (options.tty && !truncate) throw new Error('createProgress: a terminal progress line needs truncate');
  const now = options.now ?? (() => performance.now());
  let total = 0;
  let done = 0;
  let failed = 0;
  let errored = 0;
  let startedAt = 0;
  let lastDraw = 0;
  let lastTenth = 0;
  /** A redrawn line is on screen, not yet ended. */
  let drawn = false;
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
        const columns = options.columns ?? 80;
        const filled = total ? Math.round((done / total) * BAR_WIDTH) : BAR_WIDTH;
        const bar =
          columns >= BAR_FROM_COLUMNS ? `[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ` : '';
        // One column short of the edge: a line that fills the last column wraps in some terminals.
        options.write(`\r${truncate!(`${bar}${line()}`, columns - 1)}\u001b[K`);
        drawn = true;
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
      if (drawn) options.write('\n');
      drawn = false;
    },
  };
}
