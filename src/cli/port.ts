import { UsageError } from '../util/errors.js';
import { wholeNumber } from './plan-flags.js';

/** `--port N`: a TCP port, 1–65535, or 0 (the default) for any free one. */
export function portOf(text: string | undefined): number {
  const port = wholeNumber('--port', text) ?? 0;
  if (port > 65535)
    throw new UsageError(`--port expects a TCP port from 1 to 65535 (0: any free port), got '${text}'`);
  return port;
}

/** A port the system will not give is the user's to change (exit 2), not a bug; anything else is rethrown. */
export function listenError(port: number, error: unknown): unknown {
  const why: Record<string, string> = {
    EADDRINUSE: 'is already in use by another program',
    EACCES: 'needs privileges this user does not have',
    EADDRNOTAVAIL: 'is not available on this machine',
  };
  const reason = why[(error as { code?: string } | null)?.code ?? ''];
  if (!reason) return error;
  return new UsageError(
    `--port ${port}: the port ${reason}\n  → pick another port, or --port 0 for any free one`,
    {
      cause: error,
    },
  );
}
