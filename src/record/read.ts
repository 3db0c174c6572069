import { intern } from '../util/intern.js';

/** A non-empty string, interned (few distinct values over a run), else null. */
export function internedString(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? intern(value) : null;
}

/** A non-empty string as read, else null. */
export function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** A finite number, else null. */
export function count(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** `usage.<key>.<field>` as a count, e.g. usage.completion_tokens_details.reasoning_tokens. */
export function usageDetail(body: Record<string, unknown>, key: string, field: string): number | null {
  const usage = body.usage;
  if (typeof usage !== 'object' || usage === null) return null;
  const details = (usage as Record<string, unknown>)[key];
  if (typeof details !== 'object' || details === null) return null;
  return count((details as Record<string, unknown>)[field]);
}
