import { setMaxListeners } from 'node:events';
import type { CliIO } from './io.js';

export interface Interrupts {
  /** Aborted (reason: the signal's name) on the first SIGINT/SIGTERM: stop scheduling. */
  interrupt: AbortSignal;
  /** Aborted after the grace period, or on a second signal: abandon in-flight requests. */
  abortInFlight: AbortSignal;
  dispose(): void;
}

/**
 * Two-stage Ctrl-C: the first signal stops new requests and lets in-flight ones finish
 * (their answers are paid for), for at most `graceMs`; a second signal stops at once.
 * Either way the report is written with status `interrupted` and `--resume` continues.
 */
export function watchInterrupts(io: CliIO, graceMs: number): Interrupts {
  const interrupt = new AbortController();
  const abortInFlight = new AbortController();
  // Every request in flight listens on this one signal (exchange.ts), and more than 10 are
  // in flight whenever the services' concurrency adds up past 10: not a leak, so no warning.
  setMaxListeners(0, abortInFlight.signal);
  let timer: NodeJS.Timeout | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (!interrupt.signal.aborted) {
      interrupt.abort(signal);
      io.stderr(
        `\ndriftcheck: ${signal} — no new requests; waiting up to ${Math.round(graceMs / 1000)} s for those in flight (again to stop now)\n`,
      );
      timer = setTimeout(() => abortInFlight.abort(signal), graceMs);
      timer.unref();
    } else if (!abortInFlight.signal.aborted) {
      io.stderr(`driftcheck: ${signal} again — abandoning requests in flight\n`);
      abortInFlight.abort(signal);
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    interrupt: interrupt.signal,
    abortInFlight: abortInFlight.signal,
    dispose() {
      clearTimeout(timer);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
