import type { SampleResult } from '../stored/journal/records.js';
import type { CaseConversation, CaseEntry, ConversationStep } from '../stored/report/types.js';

/**
 * A conversation's sample (a tool loop, scripted turns) as its case entry keeps it:
 * each request's model, provider, finish_reason, latency and error, and each turn's user
 * message and reply with the last request it took; null for a single request. A turn ends
 * at a request whose calls were not answered — a text answer, or calls without
 * `tool_results` — or at the last request (src/run/tool-loop.ts): the requests between are
 * those whose calls the trajectory answered.
 */
export function conversationOf(sample: SampleResult | null): CaseConversation | null {
  const steps = sample?.steps;
  if (!sample || !steps?.length) return null;
  const out: CaseConversation = {
    steps: steps.map((s) => {
      const step: ConversationStep = {
        model: s.model,
        ...(s.provider == null ? {} : { provider: s.provider }),
        finish_reason: s.finish_reason,
        latency_ms: s.latency_ms,
      };
      if (s.error) step.error = s.error.kind;
      return step;
    }),
  };
  if (sample.turns) {
    const answered = new Set((sample.trajectory?.calls ?? []).map((c) => c.step));
    const ends: number[] = [];
    for (let step = 1; step <= steps.length; step++)
      if (step === steps.length || !answered.has(step)) ends.push(step);
    out.turns = sample.turns.map((t, i) => ({
      user: t.user,
      content: t.content,
      finish_reason: t.finish_reason,
      last_step: ends[Math.min(i, ends.length - 1)]!,
    }));
  }
  return out;
}

/** Where a conversation's error happened: its request (1-based) and, in scripted turns, its turn. */
export interface ErrorPlace {
  step: number;
  turn: number | null;
}

/**
 * Where the case's error happened when a conversation made it: the last request of the
 * sample it came from (the first failing one, kept whole when it is not the first) and
 * its last turn reached; null for an error of a single request, or no error.
 */
export function errorPlace(
  c: Pick<CaseEntry, 'error' | 'first_failure' | 'conversation'>,
): ErrorPlace | null {
  if (!c.error) return null;
  const failing = c.first_failure;
  if (failing) {
    const steps = failing.steps?.length ?? 0;
    return steps > 0 ? { step: steps, turn: failing.turns?.length ?? null } : null;
  }
  const conversation = c.conversation;
  if (!conversation?.steps.length) return null;
  return { step: conversation.steps.length, turn: conversation.turns?.length ?? null };
}

/** `turn 2, step 5` or `step 4`: how every view names where a conversation's error happened. */
export function placeText(place: ErrorPlace): string {
  return place.turn === null ? `step ${place.step}` : `turn ${place.turn}, step ${place.step}`;
}

/**
 * A case's error in one line, as the console, summary.md, JUnit and report.html say it:
 * where a conversation made it, its kind, the HTTP status when there was one, and its message.
 */
export function errorLine(c: Pick<CaseEntry, 'error' | 'first_failure' | 'conversation'>): string | null {
  const e = c.error;
  if (!e) return null;
  const place = errorPlace(c);
  return `${place ? `${placeText(place)}: ` : ''}${e.kind}${e.http_status ? ` (HTTP ${e.http_status})` : ''}: ${e.message}`;
}
