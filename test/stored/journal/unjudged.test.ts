import { describe, expect, it } from 'vitest';
import type { SampleRecord, StepLine } from '../../../src/stored/journal/records.js';
import { addUpSteps, ConversationSteps } from '../../../src/stored/journal/unjudged.js';

const step = (key: string, n: number, cost: number | null = 0.001): StepLine => ({
  type: 'step',
  key,
  suite: 's',
  case: key.slice(2, -2),
  repeat: 0,
  turn: 1,
  step: n,
  model: 'm',
  finish_reason: 'tool_calls',
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2, ...(cost === null ? {} : { cost }) },
  latency_ms: 1,
  attempts: 1,
});
const sample = (key: string) => ({ key, suite: 's', case: key.slice(2, -2), status: 'pass' }) as SampleRecord;
const priced = (s: StepLine) => s.usage?.cost ?? null;

describe('ConversationSteps', () => {
  it('leaves out a conversation its sample ended, and keeps one no sample followed as stopped part-way', () => {
    const steps = new ConversationSteps();
    for (const r of [step('s/a#0', 1), step('s/b#0', 1), step('s/a#0', 2), sample('s/a#0'), step('s/b#0', 2)])
      steps.add(r);
    expect(steps.unfinished().map((c) => [c.key, c.steps.map((s) => s.step)])).toEqual([['s/b#0', [1, 2]]]);
    expect(addUpSteps(steps.stopped(), priced)).toEqual({
      conversations: 1,
      steps: 2,
      cost: 0.002,
      tokens: { prompt: 2, completion: 2, total: 4 },
    });
  });

  it('closes the earlier steps of a conversation sent again from its first step (a resumed session), and counts both', () => {
    const steps = new ConversationSteps();
    // Stopped after 2 steps; resumed: stopped again after 1; resumed: finished in 3.
    for (const r of [step('s/a#0', 1), step('s/a#0', 2), step('s/a#0', 1), step('s/a#0', 1)]) steps.add(r);
    expect(steps.unfinished()).toHaveLength(1);
    for (const r of [step('s/a#0', 2), step('s/a#0', 3), sample('s/a#0')]) steps.add(r);
    expect(steps.unfinished()).toEqual([]);
    expect(addUpSteps(steps.stopped(), priced)).toEqual({
      conversations: 2,
      steps: 3,
      cost: 0.003,
      tokens: { prompt: 3, completion: 3, total: 6 },
    });
  });

  it('adds up no cost where none is known, and nothing for no conversation', () => {
    const steps = new ConversationSteps();
    steps.add(step('s/a#0', 1, null));
    expect(addUpSteps(steps.stopped(), priced)).toEqual({
      conversations: 1,
      steps: 1,
      cost: null,
      tokens: { prompt: 1, completion: 1, total: 2 },
    });
    expect(addUpSteps([], priced)).toBeNull();
  });
});
