import { roundCost } from '../../core/cost.js';
import type { UnjudgedSteps } from '../report/types.js';
import type { JournalRecord, StepLine } from './records.js';

/** The steps of one conversation a run stopped before its end. */
export interface StoppedConversation {
  key: string;
  steps: StepLine[];
}

/**
 * Which journaled steps belong to conversations that never ended, read in journal order:
 * a conversation's steps are open until its sample comes (that sample holds them, and is
 * what is judged); a step numbered again from the start (a resumed run sending it again)
 * closes the earlier steps of its sample as stopped; steps still open at the end are
 * stopped too (the run stopped part-way through them). Stopped steps were paid for and are
 * never judged. What it holds is the conversations in flight when the run stopped, never
 * the finished ones. The fold (what a report says was spent) and `--resume` (what the cap
 * counts, and what it restarts) read a journal with it.
 */
export class ConversationSteps {
  private readonly open = new Map<string, StepLine[]>();
  private readonly closed: StoppedConversation[] = [];

  /** Takes one record of the journal, in order; only steps and samples matter. */
  add(record: JournalRecord): void {
    if (record.type === undefined) this.open.delete(record.key);
    if (record.type !== 'step') return;
    const steps = this.open.get(record.key);
    if (!steps) this.open.set(record.key, [record]);
    else if (record.step > steps.at(-1)!.step) steps.push(record);
    else {
      // Numbered again from the start: the earlier conversation stopped, this is it sent again.
      this.closed.push({ key: record.key, steps });
      this.open.set(record.key, [record]);
    }
  }

  /** Conversations still open: stopped part-way in the last session, each sent again by a resume. */
  unfinished(): StoppedConversation[] {
    return [...this.open].map(([key, steps]) => ({ key, steps }));
  }

  /** Every conversation stopped part-way, in any session, with its steps: paid for, never judged. */
  stopped(): StoppedConversation[] {
    return [...this.closed, ...this.unfinished()];
  }
}

/**
 * What these conversations' steps add up to, each step priced by `cost` (null: not known):
 * how many, of how many conversations, and their cost; null for none.
 */
export function addUpSteps(
  conversations: readonly StoppedConversation[],
  cost: (step: StepLine) => number | null,
): UnjudgedSteps | null {
  if (conversations.length === 0) return null;
  let steps = 0;
  let usd: number | null = null;
  const tokens = { prompt: 0, completion: 0, total: 0 };
  for (const c of conversations)
    for (const step of c.steps) {
      steps++;
      const known = cost(step);
      if (known !== null) usd = (usd ?? 0) + known;
      tokens.prompt += step.usage?.prompt_tokens ?? 0;
      tokens.completion += step.usage?.completion_tokens ?? 0;
      tokens.total += step.usage?.total_tokens ?? 0;
    }
  return { conversations: conversations.length, steps, cost: usd === null ? null : roundCost(usd), tokens };
}
