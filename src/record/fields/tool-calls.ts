import { declaredTools, readToolCalls, type ToolCall } from '../../core/tool-calls.js';
import type { RecordedField } from '../field.js';
import { toolDrift } from '../tool-drift.js';
import { TOOL_DRIFT_KINDS } from '../tool-drift-kinds.js';
import { toolRateDrift } from '../tool-rates.js';
import { type ToolUse, toolUse } from '../tool-use.js';

/**
 * `tool_calls`: the calls an answer made (id, name, raw and parsed arguments), each judged
 * against the tools the request declared (invalid_json, unknown_tool, schema_mismatch, as
 * the router sorts them). A request with tools that was answered in text records [] — a
 * call that became text is then seen; a request without tools and an answer without calls
 * record nothing (journal lines of plain suites stay as they were).
 */
export const toolCalls = {
  schema: { type: 'array', items: { $ref: '#/$defs/toolCall' } },
  extract: ({ message, params }) => {
    const declared = declaredTools(params);
    return readToolCalls(message, declared) ?? (declared && message ? [] : null);
  },
  case: { tool_use: toolUse() },
  baseline: { from: 'tool_use' as const },
  drift: {
    kinds: TOOL_DRIFT_KINDS,
    diff: toolDrift,
    // Rates of repeated cases are tested over the suite, adjusted for its number of cases.
    suite: (cases, { alpha }) => {
      const judged = toolRateDrift(
        cases.flatMap((c) => {
          const now = c.current.tool_use as ToolUse | null | undefined;
          return c.baseline && now ? [{ case: c.case, baseline: c.baseline, current: now }] : [];
        }),
        alpha,
      );
      return { cases: judged.caseDrift, suite: judged.suiteDrift };
    },
  },
} satisfies RecordedField<ToolCall[], ToolUse>;
