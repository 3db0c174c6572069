import type { ExitCode } from './exit-codes.js';

/**
 * Errors that stop a whole command. A failing case is data (CaseResult), never one of
 * these. Only the CLI's top-level catch turns them into an exit code.
 */
export class DriftcheckError extends Error {
  override readonly name: string = 'DriftcheckError';
  constructor(
    /** Stable, machine-readable code. */
    readonly code: string,
    message: string,
    readonly exitCode: ExitCode,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Bad flags or arguments (exit 2). */
export class UsageError extends DriftcheckError {
  override readonly name = 'UsageError';
  constructor(message: string, options?: { cause?: unknown }) {
    super('usage', message, 2, options);
  }
}

/** Suites or config that do not validate (exit 2); carries every diagnostic found. */
export class InputError extends DriftcheckError {
  override readonly name = 'InputError';
  constructor(
    readonly diagnostics: Diagnostic[],
    options?: { cause?: unknown },
  ) {
    super('invalid_input', diagnostics.map(formatDiagnostic).join('\n'), 2, options);
  }
}

/** Something is missing before any request could be sent: env value, base URL, key shape (exit 2). */
export class PreflightError extends DriftcheckError {
  override readonly name = 'PreflightError';
  constructor(message: string, options?: { cause?: unknown }) {
    super('preflight', message, 2, options);
  }
}

/** A file driftcheck needs cannot be read or written (exit 2). */
export class FileError extends DriftcheckError {
  override readonly name = 'FileError';
  constructor(
    readonly file: string,
    /** What is wrong with it, without its name. */
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super('file', `${file}: ${reason}`, 2, options);
  }
}

/** A folder another driftcheck process holds (a run being run or resumed, a history being appended to) (exit 2). */
export class LockedError extends DriftcheckError {
  override readonly name = 'LockedError';
  constructor(
    readonly file: string,
    message: string,
  ) {
    super('locked', message, 2);
  }
}

/**
 * `path:line:column: message` followed by an indented hint — the shape editors and CI link
 * on; `path: message` when the problem is the file as a whole, `warning:` before a warning.
 */
export function formatDiagnostic(d: Diagnostic): string {
  const where = d.whole_file ? d.file : `${d.file}:${d.line}:${d.column}`;
  const head = `${where}: ${d.severity === 'warning' ? 'warning: ' : ''}${d.message}`;
  return d.hint ? `${head}\n  → ${d.hint}` : head;
}

/**
 * A file past what driftcheck reads of its kind (exit 2). Raised by the one bounded reader
 * (util/bounded-read.ts) the moment the count passes the limit, so a pipe or a device that
 * never ends (`/dev/zero`, `yes |`) costs the limit, not all memory.
 */
export class TooLargeError extends DriftcheckError {
  override readonly name = 'TooLargeError';
  constructor(
    readonly file: string,
    /** What was too large, and the limit. */
    readonly what: string,
    /** What to do about it. */
    readonly remedy: string,
  ) {
    super('too_large', `${file}: ${what}; ${remedy}`, 2);
  }
}

export interface SourceLocation {
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
}

export interface Diagnostic extends SourceLocation {
  message: string;
  /** What the user should do about it. */
  hint?: string;
  /**
   * `warning`: something that may be right (a finish_reason a service may have added) and is
   * reported without stopping; absent: an error.
   */
  severity?: 'warning';
  /** The problem is the file or folder as a whole (missing, unreadable): no line to point at. */
  whole_file?: true;
}

/** Validation returns this instead of throwing; warnings come with a value too. */
export type Validated<T> =
  { value: T; errors?: undefined; warnings?: Diagnostic[] } | { value?: undefined; errors: Diagnostic[] };
