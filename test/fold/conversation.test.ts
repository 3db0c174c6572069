import { describe, expect, it } from 'vitest';
import { conversationOf, errorLine, errorPlace } from '../../src/fold/conversation.js';
import type { StepRecord } from '../../src/stored/journal/records.js';
import type { CaseError } from '../../src/core/answer.js';
import { entryOf } from '../helpers/entries.js';
import { sampleResult } from '../helpers/results.js';

const step = (finish_reason: string): StepRecord => ({
  model: 'm',
  finish_reason,
  usage: null,
  latency_ms: 3,
  attempts: 1,
});
const call = (n: number, tool: string) => ({ step: n, tool, arguments: '{}', result: '"ok"' });
const timeout: CaseError = {
  kind: 'timeout',
  http_status: null,
  type: null,
  code: null,
  message: 'no answer within 30 s',
  model: null,
};

describe('a conversation as its case entry keeps it', () => {
  it('ends a turn at a request whose calls were not answered, and at the last', () => {
    // Turn 1: a call answered (step 1), the answer (2). Turn 2 asked without tool_results
    // answering anything: its request called a tool and ended the turn (3). Turn 3: step 4.
    const sample = sampleResult({
      case: 'chat',
      steps: [step('tool_calls'), step('stop'), step('tool_calls'), step('stop')],
      trajectory: { steps: 4, calls: [call(1, 'lookup')] },
      turns: [
        { user: null, content: 'a', finish_reason: 'stop' },
        { user: 'more?', content: '', finish_reason: 'tool_calls' },
        { user: 'and?', content: 'c', finish_reason: 'stop' },
      ],
    });
    expect(conversationOf(sample)!.turns!.map((t) => t.last_step)).toEqual([2, 3, 4]);
    // A single request has none; a loop in one turn has its requests and no turns.
    expect(conversationOf(sampleResult({ case: 'plain' }))).toBeNull();
    const loop = conversationOf(sampleResult({ case: 'loop', steps: [step('tool_calls'), step('stop')] }))!;
    expect(loop).toEqual({
      steps: [
        { model: 'm', finish_reason: 'tool_calls', latency_ms: 3 },
        { model: 'm', finish_reason: 'stop', latency_ms: 3 },
      ],
    });
  });

  it('names where its error happened: the failing sample’s last request and turn', () => {
    const failed = sampleResult({
      case: 'chat',
      status: 'error',
      error: timeout,
      steps: [step('stop'), { ...step('stop'), error: timeout }],
      turns: [
        { user: null, content: 'a', finish_reason: 'stop' },
        { user: 'more?', content: null, finish_reason: null },
      ],
    });
    const entry = entryOf(failed);
    expect(errorPlace(entry)).toEqual({ step: 2, turn: 2 });
    expect(errorLine(entry)).toBe('turn 2, step 2: timeout: no answer within 30 s');
    expect(entry.conversation!.steps[1]!.error).toBe('timeout');
    // A repeated case's error is its first failing sample's, kept whole beside the first.
    const passed = entryOf(sampleResult({ case: 'chat', steps: [step('stop')] }));
    const repeated = { ...passed, error: timeout, first_failure: { ...failed, turns: undefined } };
    expect(errorLine(repeated)).toBe('step 2: timeout: no answer within 30 s');
    // A single request's error is named as it always was.
    expect(errorLine(entryOf(sampleResult({ case: 'one', status: 'error', error: timeout })))).toBe(
      'timeout: no answer within 30 s',
    );
  });
});
