import { ADAPTIVE_SAMPLING } from '../stats/adaptive.js';
import { nextLook, nextSampleDecision, type Samples } from '../stats/index.js';
import type { SampleResult } from '../types.js';
import type { ExecuteOptions } from './execute.js';
import { type PlannedCase, plannedSample } from './plan.js';

interface CaseState {
  template: PlannedCase;
  current: Samples;
  outstanding: number;
  nextRepeat: number;
}

/**
 * Drives `repeat: auto`: each case is sampled up to the sequential test's next look, then
 * the test decides — drift or no drift stops the case, anything else adds samples up to
 * the next look (at most the cap). Samples already journaled count, so a resumed run
 * continues the same sequence.
 */
export function createAdaptiveSampler(options: ExecuteOptions, schedule: (planned: PlannedCase) => void) {
  const states = new Map<string, CaseState>();
  const id = (p: { suite: string; case: string }) => `${p.suite}/${p.case}`;
  const sampling = {
    maxSamples: ADAPTIVE_SAMPLING.cap,
    minSamples: ADAPTIVE_SAMPLING.min,
    ...(options.adaptive?.alpha ? { alpha: options.adaptive.alpha } : {}),
  };

  const decide = (state: CaseState) => {
    if (state.outstanding > 0) return;
    const { suite, case: testCase } = state.template;
    const baseline = options.adaptive?.baselineSamples(suite.suite, testCase.id) ?? { pass: 0, total: 0 };
    if (nextSampleDecision(baseline, state.current, sampling) !== 'continue') {
      options.adaptive?.onCaseDone?.(suite.suite, testCase.id);
      return;
    }
    const target = nextLook(state.current, sampling);
    for (let n = state.current.total; n < target; n++) {
      state.outstanding++;
      schedule(
        plannedSample(suite, testCase, state.nextRepeat++, state.template, true, state.template.ordinal),
      );
    }
  };

  return {
    /**
     * Registers every adaptive case of the full plan, counts the samples to send now and
     * those already journaled, and decides at once for cases with nothing left to send.
     */
    start() {
      for (const group of options.adaptive?.cases ?? []) {
        const template = plannedSample(group.suite, group.case, 0, group, true, group.ordinal);
        states.set(id({ suite: group.suite.suite, case: group.case.id }), {
          template,
          current: { pass: 0, total: 0 },
          outstanding: 0,
          nextRepeat: group.repeats,
        });
      }
      for (const planned of options.adaptive?.todo ?? []) {
        const state = states.get(id({ suite: planned.suite.suite, case: planned.case.id }));
        if (state) state.outstanding++;
      }
      for (const done of options.adaptive?.done ?? []) {
        const state = states.get(id(done));
        if (!state || done.status === 'not_run') continue;
        state.current = tally(state.current, done);
        state.nextRepeat = Math.max(state.nextRepeat, done.repeat + 1);
      }
      for (const state of states.values()) decide(state);
    },
    /** A sample of an adaptive case finished: count it, and decide once its look is complete. */
    finished(planned: PlannedCase, result: SampleResult) {
      const state = states.get(id(result));
      if (!state) return;
      state.outstanding--;
      state.current = tally(state.current, result);
      decide(state);
    },
  };
}

function tally(samples: Samples, result: SampleResult): Samples {
  return { pass: samples.pass + (result.status === 'pass' ? 1 : 0), total: samples.total + 1 };
}
