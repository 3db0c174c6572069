import { EXIT, type ExitCode } from '../util/exit-codes.js';
import type { CaseError } from './answer.js';

/**
 * The stop a stored run's status and exit code stand for (a report.json read back, which
 * has no stop record): exitForStop read backwards, or null for a run that completed.
 */
export function stopForExit(info: {
  status: string;
  exit_code: number;
  stop_reason?: CaseError | null;
}): StopReason | null {
  if (info.status === 'completed') return null;
  if (info.exit_code === EXIT.killed) return { kind: 'killed', error: null };
  if (info.exit_code === EXIT.sigint) return { kind: 'interrupted', error: null, signal: 'SIGINT' };
  if (info.exit_code === EXIT.sigterm) return { kind: 'interrupted', error: null, signal: 'SIGTERM' };
  if (info.stop_reason) {
    const kind =
      info.exit_code === EXIT.access ? 'access' : info.exit_code === EXIT.usage ? 'config' : 'paused';
    return { kind, error: info.stop_reason };
  }
  // An interrupted run of a driftcheck that wrote no code for it.
  return { kind: 'interrupted', error: null, signal: 'SIGTERM' };
}

/** How a run that stopped early exits: the stop's own code, whatever its cases say. */
export function exitForStop(stop: StopReason): ExitCode {
  switch (stop.kind) {
    case 'config':
      return EXIT.usage;
    case 'access':
      return EXIT.access;
    case 'paused':
      return EXIT.paused;
    case 'interrupted':
      return stop.signal === 'SIGTERM' ? EXIT.sigterm : EXIT.sigint;
    case 'killed':
      return EXIT.killed;
  }
}

export type RunStatus = 'completed' | 'paused' | 'interrupted';

/** Why a run ended before its plan did. */
export type StopReason =
  | { kind: 'paused' | 'access' | 'config'; error: CaseError }
  | { kind: 'interrupted'; error: null; signal: 'SIGINT' | 'SIGTERM' }
  /** The journal has no end record: the run was killed (kill -9, out of memory) or crashed. */
  | { kind: 'killed'; error: null };
