import { rmSync } from 'node:fs';

/**
 * Temporary files and folders a command removes when it ends (a comparison's spills,
 * diff's baselines folder), removed too when the process is ended by SIGINT or SIGTERM
 * before it could: the system's temp folder is not the place for 100 MB of a run's answers
 * a Ctrl-C left behind. A command that ends gracefully on a signal (a run: watchInterrupts)
 * has its own listener and cleans up in its own `finally`; then these listeners stand aside.
 */
const paths = new Set<string>();

function onSignal(signal: NodeJS.Signals): void {
  // Another listener ends the command gracefully; its own cleanup runs.
  if (process.listenerCount(signal) > 1) return;
  for (const path of paths) rmSync(path, { recursive: true, force: true });
  paths.clear();
  stopListening();
  // Ended as the signal ends a process (the shell sees 130 or 143), as it would have been.
  process.kill(process.pid, signal);
}

function stopListening(): void {
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
}

/** Registers `path` for removal if a signal ends the process; returns what unregisters it (once removed). */
export function removedIfKilled(path: string): () => void {
  if (paths.size === 0) {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }
  paths.add(path);
  return () => {
    if (!paths.delete(path) || paths.size > 0) return;
    stopListening();
  };
}
