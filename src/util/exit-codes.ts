/**
 * DESIGN.md's exit codes, plus the shell's 128 + signal for a run interrupted by SIGINT
 * (130) or SIGTERM (143), so CI never mistakes an interrupt for a verdict, and 137
 * (128 + SIGKILL) recorded for a run whose journal has no end record.
 */
export const EXIT = {
  ok: 0,
  /** A failing, erroring or regressed case, or a failing suite finding. */
  failure: 1,
  /** Usage, config or pre-flight error; also a run stopped by a wrong base_url, or one that stopped a model the service does not have. */
  usage: 2,
  /** Paused on a budget or credit condition: `--resume` continues. */
  paused: 3,
  /** Stopped by an authentication or permission failure. */
  access: 4,
  sigint: 130,
  sigterm: 143,
  killed: 137,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/**
 * The one precedence, worst first, for every command that folds several outcomes into one
 * exit code (`run --models`, `verify`, `merge` and `report` of several run folders):
 *
 *   2 usage/config — something must be fixed before any result can be trusted (a wrong
 *     base_url reached no service at all);
 *   4 auth/permission — a key must be fixed; like 2 it stopped a run, but the service was there;
 *   3 paused on budget — nothing is wrong, the run is incomplete until topped up and resumed;
 *   130, 143 interrupted, 137 killed — incomplete by the user's or CI's hand (or a crash);
 *     resumable too;
 *   1 failure — a complete verdict that something regressed;
 *   0 ok — only when every part is ok.
 *
 * Every code that says "incomplete" outranks a verdict: a pass over part of the cases is not a pass.
 */
const PRECEDENCE: readonly ExitCode[] = [
  EXIT.usage,
  EXIT.access,
  EXIT.paused,
  EXIT.sigint,
  EXIT.sigterm,
  EXIT.killed,
  EXIT.failure,
  EXIT.ok,
];

/** Whether a code says a run did not run whole (every code PRECEDENCE ranks above a verdict). */
export function isIncomplete(code: number): code is ExitCode {
  const at = PRECEDENCE.indexOf(code as ExitCode);
  return at >= 0 && at < PRECEDENCE.indexOf(EXIT.failure);
}

/** The exit code of several outcomes: the first of PRECEDENCE among them; 0 for none. */
export function worstExit(codes: Iterable<ExitCode>): ExitCode {
  const seen = new Set(codes);
  return PRECEDENCE.find((code) => seen.has(code)) ?? EXIT.ok;
}
