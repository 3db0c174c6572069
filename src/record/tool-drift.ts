import { compareJson, listJsonChanges } from '../util/json-compare.js';
import { callKey, describeCall, describeInvalid, type ToolCall } from '../core/tool-calls.js';
import type { DriftInput } from './field.js';
import type { FieldDrift } from './served-change.js';
import { repeatedToolUse } from './tool-rates.js';
import { TOOL_DRIFT_KINDS, type ToolDriftKind } from './tool-drift-kinds.js';
import type { ToolUse } from './tool-use.js';
import { joinWithin, MAX_MESSAGE_CHARS } from '../util/shorten.js';

type ToolDrift = FieldDrift<ToolDriftKind>;

const describeCalls = (calls: readonly ToolCall[] | null) =>
  calls && calls.length > 0
    ? joinWithin(calls.map(describeCall), ', ', MAX_MESSAGE_CHARS - 50)
    : 'a text answer';

/** The first sample's calls against the baseline's: another tool, or arguments changed by JSON path. */
function callChanges(was: readonly ToolCall[], now: readonly ToolCall[]): string[] {
  // Parallel calls in another order are the same calls.
  const sorted = (list: readonly ToolCall[]) => list.map(callKey).sort().join('\u0001');
  if (sorted(was) === sorted(now)) return [];
  const lines: string[] = [];
  const label = (i: number) => (Math.max(was.length, now.length) > 1 ? `call ${i + 1} ` : '');
  for (let i = 0; i < Math.max(was.length, now.length); i++) {
    const a = was[i];
    const b = now[i];
    if (!a) lines.push(`${label(i)}added: ${describeCall(b!)}`);
    else if (!b) lines.push(`${label(i)}removed: ${describeCall(a)}`);
    else if (a.name !== b.name) lines.push(`${label(i)}tool ${a.name} → ${b.name}`);
    else {
      const changes = compareJson(a.parsed ?? a.arguments, b.parsed ?? b.arguments);
      if (changes.length > 0) lines.push(`${label(i)}${b.name} ${listJsonChanges(changes)}`);
    }
  }
  return lines;
}

/** The first invalid call of a list, as a message names it. */
function firstInvalid(calls: readonly ToolCall[] | null): string {
  const bad = calls?.find((c) => !c.valid);
  return bad ? describeInvalid(bad) : 'a call was invalid';
}

/**
 * Tool drift of a case against its baseline's tool use. Once-sampled cases compare their
 * answers: a call that became text or the reverse (tool_trigger_changed, fail), an invalid
 * call where the baseline's were valid (tool_call_invalid, fail). Repeated cases are judged
 * by their trigger and valid-call rates over the whole suite (`toolRateDrift`, adjusted for
 * the number of cases), not here. Either way the first sample's calls are compared with the
 * baseline's (tool_call_changed, warn: another tool, or the argument values by JSON path).
 */
export function toolDrift(input: DriftInput<ToolUse>): ToolDrift[] {
  const was = input.baseline;
  const now = (input.current.tool_use ?? null) as ToolUse | null;
  if (!was || !now || !(was.answered > 0) || !(now.answered > 0)) return [];
  const out: ToolDrift[] = [];
  const push = (kind: ToolDriftKind, baseline: unknown, current: unknown, message: string) =>
    out.push({ kind, severity: TOOL_DRIFT_KINDS[kind].severity, baseline, current, message });
  // Repeated cases: their rates are tested over the suite (toolRateDrift).
  if (!repeatedToolUse(was, now)) {
    if (was.triggered > 0 !== now.triggered > 0)
      push(
        'tool_trigger_changed',
        was.first,
        now.first,
        was.triggered > 0
          ? `a tool call became a text answer: ${describeCalls(was.first)} → text`
          : `a text answer became a tool call: ${describeCalls(now.first)}`,
      );
    // A valid call that became invalid, or a text answer that became an invalid call.
    if (now.valid < now.triggered && was.valid === was.triggered)
      push(
        'tool_call_invalid',
        was.triggered > 0 ? was.first : null,
        now.first,
        `invalid tool call: ${firstInvalid(now.first)}`,
      );
  }
  if (was.first?.length && now.first?.length) {
    const lines = callChanges(was.first, now.first);
    if (lines.length > 0)
      push(
        'tool_call_changed',
        was.first,
        now.first,
        `tool call changed: ${joinWithin(lines, '; ', MAX_MESSAGE_CHARS - 19)}`,
      );
  }
  return out;
}
