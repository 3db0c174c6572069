import { ADAPTIVE_SAMPLING } from '../stats/adaptive.js';
import { nextLook, nextSampleDecision, type Samples } from '../stats/index.js';
import type { SampleResult } from '../stored/journal/records.js';
import type { ExecuteOptions } from './execute.js';
import { type PlannedCase, type PlannedCaseGroup, plannedSample } from './plan.js';

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
      options.adaptive?.onCaseDone?.(suite.suite, testCase.id, state.current);
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

  // Samples already journaled (a resumed run), by case: they count when their case is registered.
  const journaled = new Map<string, SampleResult[]>();
  for (const done of options.adaptive?.done ?? []) {
    if (done.status === 'not_run') continue;
    const list = journaled.get(id(done));
    if (list) list.push(done);
    else journaled.set(id(done), [done]);
  }

  return {
    /**
     * Registers an adaptive case as the plan reaches it, before any of its samples is sent:
     * `todo` samples of its first look are still to send, those already journaled count,
     * and a case with nothing left to send is decided at once.
     */
    register(group: PlannedCaseGroup, todo: number) {
      const key = id({ suite: group.suite.suite, case: group.case.id });
      const state: CaseState = {
        template: plannedSample(group.suite, group.case, 0, group, true, group.ordinal),
        current: { pass: 0, total: 0 },
        outstanding: todo,
        nextRepeat: group.repeats,
      };
      for (const done of journaled.get(key) ?? []) {
        state.current = tally(state.current, done);
        state.nextRepeat = Math.max(state.nextRepeat, done.repeat + 1);
      }
      journaled.delete(key);
      states.set(key, state);
      decide(state);
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
