import { mismatch } from '../checks/tool-match.js';
import type { CaseError } from '../core/answer.js';
import { describeCall, type ToolCall, type TrajectoryStep } from '../core/tool-calls.js';
import type { Message } from '../core/messages.js';
import type { Completion } from '../record/answer.js';
import type { CallOutcome } from '../service/types.js';
import { DEFAULT_MAX_STEPS, type SuiteCase, type ToolResults } from '../suite/types.js';

/** Where a request stands in its conversation: its turn and its step over the conversation, both from 1. */
export interface StepAt {
  turn: number;
  step: number;
}

/** Sends one request of a conversation; null when the run stopped before it was sent. */
type SendStep = (messages: Message[], at: StepAt) => Promise<CallOutcome | null>;

/** A conversation as it ended: every step's outcome in order, the calls answered, each turn's last answer, and why it stopped. */
export interface Conversation {
  steps: CallOutcome[];
  trajectory: TrajectoryStep[];
  /** Each turn reached: its user message (null: the case's own messages) and its last outcome. */
  turns: { user: string | null; outcome: CallOutcome }[];
  /** What makes the case an error although its last step answered: a call no rule answers, or too many steps. */
  error: CaseError | null;
}

/**
 * The result a case's `tool_results` give a call: the first of the tool's rules whose `when`
 * the arguments match (partially, as `tool_call` matches), else null.
 */
function answerCall(results: ToolResults, call: ToolCall): string | null {
  const rules = Object.hasOwn(results, call.name) ? results[call.name]! : [];
  for (const rule of rules)
    if (rule.when === undefined || mismatch({ name: call.name, arguments: rule.when }, call) === null)
      return rule.result;
  return null;
}

/**
 * Runs a case as a conversation. Each turn — the case's messages, then each of `turns` as a
 * user message — is sent; with `tool_results`, while the answer calls tools, the assistant
 * turn is appended as received (its content, its calls with their ids, and the router's
 * `reasoning_details`, which reasoning models need to continue) and one `tool` message per
 * call, in call order, with the case's canned result, and sent again — until a text answer,
 * an error, a call no rule answers (`tool_result_missing`) or `max_steps` requests in the
 * turn (`max_steps_reached`). A turn's reply is then kept in the conversation as it came,
 * and the next turn sent; with `stop_on_failure`, a reply `passes` rejects ends it. `send`
 * is told each step's turn and place (the run journals each step as it is answered), and
 * returns null when the run stopped before a step was sent: then the conversation is not
 * judged (null), and a resumed run starts it again from its first step.
 */
export async function converse(
  c: Pick<SuiteCase, 'messages' | 'tool_results' | 'max_steps' | 'turns' | 'stop_on_failure'>,
  send: SendStep,
  passes: (turn: number, outcome: CallOutcome) => boolean = () => true,
): Promise<Conversation | null> {
  const messages = [...c.messages];
  const done: Conversation = { steps: [], trajectory: [], turns: [], error: null };
  const users = [null, ...(c.turns ?? []).map((t) => t.user)];
  for (const [turn, user] of users.entries()) {
    if (user !== null) messages.push({ role: 'user', content: user });
    const last = await runTurn(c, (m, step) => send(m, { turn: turn + 1, step }), messages, done);
    if (last === null) return null;
    done.turns.push({ user, outcome: last });
    if (done.error || last.status === 'error') return done;
    // The reply stays in the conversation as it came; the next turn answers it.
    messages.push(assistantTurn(last.completion, []));
    if (c.stop_on_failure && !passes(turn, last)) return done;
  }
  return done;
}

/**
 * One turn: sent, and with `tool_results` its calls answered and sent again until a text
 * answer, an error, a call no rule answers or `max_steps` requests (the last two set
 * `done.error`). Returns the turn's last outcome; null when the run stopped before a step.
 */
async function runTurn(
  c: Pick<SuiteCase, 'tool_results' | 'max_steps'>,
  send: (messages: Message[], step: number) => Promise<CallOutcome | null>,
  messages: Message[],
  done: Conversation,
): Promise<CallOutcome | null> {
  const most = c.max_steps ?? DEFAULT_MAX_STEPS;
  for (let inTurn = 1; ; inTurn++) {
    const outcome = await send(messages, done.steps.length + 1);
    if (outcome === null) return null;
    done.steps.push(outcome);
    const step = done.steps.length;
    const calls = c.tool_results && outcome.status === 'ok' ? (outcome.completion.tool_calls ?? []) : [];
    if (outcome.status === 'error' || calls.length === 0) return outcome;
    const answers = calls.map((call) => answerCall(c.tool_results!, call));
    calls.forEach((call, i) =>
      done.trajectory.push({ step, tool: call.name, arguments: call.arguments, result: answers[i]! }),
    );
    const model = outcome.completion.model;
    const unanswered = calls.find((_, i) => answers[i] === null);
    if (unanswered) {
      done.error = caseError(
        'tool_result_missing',
        `called ${describeCall(unanswered)}, which no tool_results rule answers: add a result for ${unanswered.name} (or a rule whose when matches these arguments)`,
        model,
      );
      return outcome;
    }
    if (inTurn >= most) {
      done.error = caseError(
        'max_steps_reached',
        `still calling tools after ${most} steps (max_steps ${most}; raise it if the task needs more): the last step called ${calls.map(describeCall).join(', ')}`,
        model,
      );
      return outcome;
    }
    messages.push(assistantTurn(outcome.completion, calls, step));
    calls.forEach((call, i) =>
      messages.push({ role: 'tool', tool_call_id: callId(call, step, i), content: answers[i]! }),
    );
  }
}

/** A call's id as both turns name it: the service's (a call without one gets one of its own). */
const callId = (call: ToolCall, step: number, i: number): string => call.id ?? `call_${step}_${i}`;

/**
 * The assistant turn as the service sent it, to be sent back: its content (null when it only
 * called tools), its calls with their ids, and the router's reasoning_details.
 */
function assistantTurn(completion: Completion, calls: readonly ToolCall[], step = 0): Message {
  const turn: Message & { reasoning_details?: unknown[] } = {
    role: 'assistant',
    content: completion.content === '' && calls.length ? null : completion.content,
  };
  if (calls.length)
    turn.tool_calls = calls.map((call, i) => ({
      id: callId(call, step, i),
      type: 'function' as const,
      function: { name: call.name, arguments: call.arguments },
    }));
  if (completion.reasoning_details) turn.reasoning_details = completion.reasoning_details;
  return turn;
}

function caseError(kind: CaseError['kind'], message: string, model: string | null): CaseError {
  return { kind, http_status: null, type: null, code: null, message, model };
}
