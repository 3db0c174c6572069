import type { DriftKindRow } from './severity.js';

/**
 * The drift kinds of tool calls (the `tool_calls` field's), with their weights: a call that
 * became text or the reverse, and an invalid call where the baseline's were valid, fail;
 * another tool or other argument values warn. Per answer (toolDrift) and as rates of
 * repeated cases (toolRateDrift) alike.
 */
export const TOOL_DRIFT_KINDS = {
  tool_trigger_changed: { severity: 'fail' },
  tool_call_changed: { severity: 'warn' },
  tool_call_invalid: { severity: 'fail' },
} as const satisfies Record<string, DriftKindRow>;

export type ToolDriftKind = keyof typeof TOOL_DRIFT_KINDS;
