import { resolve } from 'node:path';
import type { Baseline, BaselineCase } from './types.js';
import { displayPath } from '../../yaml/display-path.js';
import { baselinePath, caseOf, readBaseline } from './store.js';
import { SuiteBaseline } from './suite-baseline.js';

export interface BaselineReader {
  /**
   * A suite's baseline, read from disk case by case (or one of the few held for the run), and
   * where it lives (as reports show it).
   */
  read(suite: string): Promise<{ baseline: SuiteBaseline | null; path: string | null }>;
  /** A baseline the run holds while it samples (adaptive cases, judges comparing against it). */
  held(suite: string): Baseline | null;
  /** A case's entry in a held baseline, or null (caseOf). */
  heldCase(suite: string, caseId: string): BaselineCase | null;
  /** Reads and holds the baselines of these suites for the whole run. */
  hold(suites: readonly string[]): Promise<void>;
  /** Whether this suite's baseline is held (read, or known to be absent). */
  isHeld(suite: string): boolean;
}

/**
 * Baselines are read per suite when needed, not all at once: the fold reads each suite's
 * when it folds that suite, and drops it after. Only suites whose cases need their baseline
 * while they run (`repeat: auto`, a judge with `equivalent_to_baseline`) are held.
 */
export function baselineReader(dir: string, cwd: string): BaselineReader {
  const held = new Map<string, Baseline | null>();
  return {
    async read(suite) {
      const whole = held.get(suite);
      const baseline = whole
        ? SuiteBaseline.of(whole)
        : held.has(suite)
          ? null
          : await SuiteBaseline.read(dir, suite);
      // Shown as the suite's own file is (relative to where driftcheck ran): report.json and
      // junit.xml travel as CI artifacts, and an absolute path names the build machine.
      return { baseline, path: baseline ? displayPath(resolve(baselinePath(dir, suite)), cwd) : null };
    },
    held: (suite) => held.get(suite) ?? null,
    heldCase: (suite, caseId) => caseOf(held.get(suite), caseId),
    isHeld: (suite) => held.has(suite),
    async hold(suites) {
      for (const suite of suites) if (!held.has(suite)) held.set(suite, await readBaseline(dir, suite));
    },
  };
}
