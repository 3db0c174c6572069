import { describe, expect, it } from 'vitest';
import { exitForStop, stopForExit } from '../../src/core/stops.js';
import { type ExitCode, isIncomplete, worstExit } from '../../src/util/exit-codes.js';
import type { StopReason } from '../../src/core/stops.js';
import type { CaseError } from '../../src/core/answer.js';

describe('worstExit: one precedence for every command', () => {
  it.each<[ExitCode[], ExitCode]>([
    [[], 0],
    [[0, 0], 0],
    [[0, 1], 1],
    // A stop or pause is never reported as a verdict on part of the cases.
    [[1, 3], 3],
    [[0, 130], 130],
    [[1, 143], 143],
    [[130, 143], 130],
    [[143, 137], 143],
    [[1, 137], 137],
    [[3, 130], 3],
    [[143, 3], 3],
    [[3, 4], 4],
    [[0, 4, 1], 4],
    // A wrong base_url (2) outranks everything: `run --models a,b` both stopping there exits 2, not 0.
    [[2, 2], 2],
    [[0, 2], 2],
    [[4, 2], 2],
    [[2, 4, 3, 143, 130, 137, 1, 0], 2],
  ])('%j → %i', (codes, worst) => {
    expect(worstExit(codes)).toBe(worst);
    expect(worstExit([...codes].reverse())).toBe(worst);
  });
});

describe('isIncomplete: the codes that outrank a verdict', () => {
  it('is true for a stop of any kind and false for a verdict or a code driftcheck never gives', () => {
    expect([2, 4, 3, 130, 143, 137].map(isIncomplete)).toEqual([true, true, true, true, true, true]);
    expect([0, 1, 70, 5].map(isIncomplete)).toEqual([false, false, false, false]);
  });
});

describe('exitForStop', () => {
  const error: CaseError = {
    kind: 'auth',
    http_status: 401,
    type: null,
    code: null,
    message: 'x',
    model: null,
  };
  it.each<[StopReason, ExitCode]>([
    [{ kind: 'config', error }, 2],
    [{ kind: 'access', error }, 4],
    [{ kind: 'paused', error }, 3],
    [{ kind: 'interrupted', error: null, signal: 'SIGINT' }, 130],
    [{ kind: 'interrupted', error: null, signal: 'SIGTERM' }, 143],
    [{ kind: 'killed', error: null }, 137],
  ])('%j → %i', (stop, code) => {
    expect(exitForStop(stop)).toBe(code);
  });

  // A report.json read back (a 0.1 run folder) names its stop by status and code alone.
  it.each<[StopReason, ExitCode]>([
    [{ kind: 'config', error }, 2],
    [{ kind: 'access', error }, 4],
    [{ kind: 'paused', error }, 3],
    [{ kind: 'interrupted', error: null, signal: 'SIGINT' }, 130],
    [{ kind: 'interrupted', error: null, signal: 'SIGTERM' }, 143],
    [{ kind: 'killed', error: null }, 137],
  ])('stopForExit reads %j back from exit %i', (stop, code) => {
    const status =
      stop.kind === 'paused' || stop.kind === 'access' || stop.kind === 'config' ? 'paused' : 'interrupted';
    expect(stopForExit({ status, exit_code: code, stop_reason: stop.error })).toEqual(stop);
    expect(stopForExit({ status: 'completed', exit_code: 0, stop_reason: null })).toBeNull();
  });
});
