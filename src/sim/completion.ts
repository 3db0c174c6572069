import type { SimFlavour } from '../adapters/index.js';
import type { SimAgentFault, SimDirective, SimStreamFault } from '../suite/types.js';
import { reasoningOf } from './agent.js';
import type { ChatMessage } from './answer.js';
import { answerReply, jsonAnswer, type ResolvedModel } from './answer-reply.js';
import {
  aliasTarget,
  findAlias,
  findDirectModel,
  findRouterModel,
  providerRate,
  type SimProvider,
} from './catalog.js';
import { readDirective } from './directive.js';
import {
  directBadRequest,
  directFault,
  directUnsupportedParameter,
  directUnsupportedValue,
} from './errors-direct.js';
import { routerBadRequest, routerFault, routerNoEndpoints } from './errors-router.js';
import { bearerToken, keyShape } from './keys.js';
import { type ErrorContext, type ErrorFault, isErrorFault, type SimReply } from './reply.js';
import { type ParsedRequest, readCompletionRequest } from './request.js';
import { chooseProvider } from './routing.js';
import { DEFAULT_STALL_MS, partialAnswer, streamAnswer, wholeAnswerDelayMs } from './stream.js';
import type { SimState } from './state.js';
import { isWordy, styleFor } from './styles.js';
import { servedToolRequest } from './tool-serving.js';
import { planTurn } from './tool-turn.js';
import { hash } from './words.js';

/** Simulator options after defaults were applied. */
export interface SimConfig {
  latencyMs: number;
  /** Accepted keys, or null to accept any key of the platform's shape. */
  routerKeys: ReadonlySet<string> | null;
  directKeys: ReadonlySet<string> | null;
  creditAfter: number | null;
  budgetAfter: number | null;
  aliasMoveAfter: number | null;
  echoKey: boolean;
}

/** The request headers the simulator acts on. */
export interface CompletionHeaders {
  authorization?: string;
  directive?: string;
  caseId?: string;
}

/** A reply plus how long to wait before sending it. */
export interface Handled {
  reply: SimReply;
  delayMs: number;
}

/** Whether a presented key is one this platform accepts. */
export function acceptsKey(kind: SimFlavour, key: string | null, config: SimConfig): key is string {
  if (key === null) return false;
  const listed = kind === 'router' ? config.routerKeys : config.directKeys;
  return listed ? listed.has(key) : keyShape(key) === kind;
}

/** One chat-completion request, start to finish: auth, body, directive, budget, fault, model, answer. */
export function handleCompletion(
  kind: SimFlavour,
  config: SimConfig,
  state: SimState,
  headers: CompletionHeaders,
  raw: string,
): Handled {
  state.countRequest(headers.caseId);
  const key = bearerToken(headers.authorization);
  const fault = (f: ErrorFault, ctx: ErrorContext) =>
    kind === 'router' ? routerFault(f, ctx) : directFault(f, ctx);
  const later = (reply: SimReply, extraMs = 0): Handled => ({ reply, delayMs: config.latencyMs + extraMs });
  if (!acceptsKey(kind, key, config)) {
    return later(fault('auth', { model: '', key, echoKey: config.echoKey, retryAfterS: 1 }));
  }
  const read = readCompletionRequest(kind, raw);
  if (!read.ok) return later(read.reply);
  const dir = readDirective(headers.directive, read.request.messages);
  if (!dir.ok)
    return later(kind === 'router' ? routerBadRequest(dir.message) : directBadRequest(dir.message));
  const d: SimDirective = dir.directive ?? {};
  const { model: requested, maxTokens, stream, identity } = read.request;
  const ctx: ErrorContext = {
    model: requested,
    key,
    echoKey: config.echoKey,
    retryAfterS: d.retry_after_s ?? 1,
    retryAfterSet: d.retry_after_s !== undefined,
  };
  const delay = d.delay_ms ?? 0;

  // Spend limits are enforced before anything else the key could do, as the real services do.
  const used = state.successesOf(key);
  if (kind === 'router' && config.creditAfter !== null && used >= config.creditAfter) {
    return later(fault('insufficient_credit', ctx), delay);
  }
  if (kind === 'direct' && config.budgetAfter !== null && used >= config.budgetAfter) {
    return later(fault('budget_exceeded', ctx), delay);
  }
  const active =
    d.fault !== undefined && faultFires(kind, d, headers.caseId, dir.messages, state) ? d.fault : null;
  if (active !== null && isErrorFault(active)) return later(fault(active, ctx), delay);
  if (active === 'timeout') return later({ action: 'hang' }, delay);
  if (active === 'network') return later({ action: 'destroy' }, delay);

  const resolved = resolveModel(kind, config, state, read.request, d.provider);
  if (resolved === null) return later(fault('invalid_model', ctx), delay);
  // The preferences exclude every provider of the model: the documented 503, not retryable.
  if (resolved === 'preferences') return later(fault('routing', { ...ctx, retryAfterSet: false }), delay);
  if (resolved === 'parameters' || resolved === 'tool_use') return later(routerNoEndpoints(resolved), delay);
  if (kind === 'direct' && resolved.reasoning) {
    const refused = reasoningRefusal(read.request);
    if (refused !== null) return later(refused, delay);
  }
  // pass_rate: one coin per request from the simulator's seeded generator.
  const answered =
    d.pass_rate !== undefined && state.random() >= d.pass_rate
      ? { ...d, reply: d.fail_reply ?? 'I am not sure.' }
      : d;
  // Coins of a request are a function of the seed and its body (and how often it came before),
  // streamed or not.
  const coin = (purpose: string) => () => state.coin(`${kind}\n${purpose}\n${identity}`);
  // With a `provider`, the tool fault is that provider's: a request pinned elsewhere
  // (`provider.only`, `--providers`) is served by another upstream, without it.
  const faulty = d.provider === undefined || sameProvider(d.provider, resolved.provider);
  const toolFault =
    faulty && d.tool_fault !== undefined && coin('tool_fault')() < (d.tool_fault_rate ?? 1)
      ? d.tool_fault
      : undefined;
  // Tool-loop faults: the directive's (scoped to its provider as the tool fault is), then the
  // serving provider's standing traits, each by its own coin.
  const agentFaults = new Set<SimAgentFault>();
  if (faulty && d.agent_fault !== undefined && coin('agent_fault')() < (d.agent_fault_rate ?? 1))
    agentFaults.add(d.agent_fault);
  for (const [trait, rate] of Object.entries(resolved.agentFaults) as [SimAgentFault, number][])
    if (coin(`agent_trait ${trait}`)() < rate) agentFaults.add(trait);
  const requireParameters = read.request.provider?.require_parameters === true;
  const turn = planTurn({
    request: servedToolRequest(read.request.tools, resolved.unsupported, toolFault, requireParameters),
    messages: dir.messages,
    fault: toolFault,
    mismatchRate: resolved.schemaMismatchRate,
    coin: coin('schema_mismatch'),
    callId: () =>
      `call_${state
        .nextId()
        .replace(/[^A-Za-z0-9]/g, '0')
        .padStart(24, '0')}`,
    wordy: resolved.wordy,
    agentFaults,
    reasoning: resolved.reasoning ? (calls) => reasoningOf(resolved.id, calls) : null,
  });
  // Stream faults: the directive's (scoped to its provider as the tool fault is), then the
  // serving provider's standing traits, each by its own coin.
  const streamFaults = new Set<SimStreamFault>();
  if (faulty && d.stream_fault !== undefined && coin('stream_fault')() < (d.stream_fault_rate ?? 1))
    streamFaults.add(d.stream_fault);
  for (const [trait, rate] of Object.entries(resolved.streamFaults) as [SimStreamFault, number][])
    if (coin(`stream_trait ${trait}`)() < rate) streamFaults.add(trait);
  const answer = answerReply(kind, resolved, dir.messages, maxTokens, answered, active, state, turn);
  const plan = {
    firstTokenMs: config.latencyMs + delay,
    // The serving upstream's rate, unless the directive sets one (scoped to its provider as the faults are).
    tokensPerS: (faulty ? d.tokens_per_s : undefined) ?? resolved.tokensPerS,
    stallMs: d.stall_ms ?? DEFAULT_STALL_MS,
    includeUsage: read.request.includeUsage,
    faults: streamFaults,
  };
  // Only a usable answer spends credit, and one that failed mid-way is not usable.
  const failed = streamFaults.has('error_after_content') || (stream && streamFaults.has('cut'));
  if (answer.usable && !failed) state.countSuccess(key);
  // A stream carries its own timing; a whole answer waits for the generation behind it.
  if (stream) return { reply: streamAnswer(kind, answer, plan), delayMs: 0 };
  const whole = streamFaults.has('error_after_content') ? partialAnswer(kind, answer) : answer;
  return later(jsonAnswer(whole), delay + wholeAnswerDelayMs(plan));
}

/**
 * What a direct reasoning model refuses, as OpenAI's do: `max_tokens` (they take
 * `max_completion_tokens`, which counts their thinking), and a temperature other than their
 * own, 1. Null: nothing.
 */
function reasoningRefusal(request: ParsedRequest): SimReply | null {
  if (request.capParam === 'max_tokens')
    return directUnsupportedParameter('max_tokens', 'max_completion_tokens');
  if (request.temperature !== null && request.temperature !== 1)
    return directUnsupportedValue('temperature', request.temperature, 1);
  return null;
}

/** Whether a directive's provider (a name or a slug, in any case) is the one that served. */
function sameProvider(named: string, served: string): boolean {
  const slug = (text: string) => text.toLowerCase().replace(/\s+/g, '-');
  return slug(named) === slug(served);
}

/** fail_times: the fault fires for the first N requests of one case (or one conversation), then stops. */
function faultFires(
  kind: SimFlavour,
  d: SimDirective,
  caseId: string | undefined,
  messages: ChatMessage[],
  state: SimState,
): boolean {
  if (d.fail_times === undefined) return true;
  const who = caseId ?? `#${hash(JSON.stringify(messages))}`;
  return state.takeFault(`${kind}\n${d.fault}\n${who}`, d.fail_times);
}

/**
 * The concrete model for a requested id and the provider that serves it; an alias
 * resolution counts towards `aliasMoveAfter`.
 */
function resolveModel(
  kind: SimFlavour,
  config: SimConfig,
  state: SimState,
  request: ParsedRequest,
  tonight: string | undefined,
): ResolvedModel | 'preferences' | 'parameters' | 'tool_use' | null {
  const id = request.model;
  if (kind === 'direct') {
    const direct = findDirectModel(id);
    if (!direct) return null;
    return {
      id,
      provider: 'Moonshot AI',
      variant: null,
      priced: null,
      reasoning: direct.reasoning === true,
      tokensPerS: direct.tokensPerS,
      ...servingTraits(id, null, null),
    };
  }
  const alias = findAlias(id);
  const concrete = alias
    ? aliasTarget(alias, state.aliasResolutions++, config.aliasMoveAfter)
    : findRouterModel(id);
  if (!concrete) return null;
  const routed = chooseProvider(concrete, request.provider, tonight, request.tools.carries);
  if ('none' in routed) return routed.none;
  const served = routed.provider;
  // The default provider answers as the model does; another one in its own words.
  const variant = served === concrete.providers[0] ? null : `${concrete.id}@${served.slug}`;
  return {
    id: concrete.id,
    provider: served.name,
    variant,
    priced: concrete,
    reasoning: concrete.reasoning,
    tokensPerS: providerRate(concrete, served),
    ...servingTraits(concrete.id, variant, served),
  };
}

/** What the serving upstream brings to a request: its standing faults (tool calls, loops, streams), and how its model words JSON. */
function servingTraits(
  model: string,
  variant: string | null,
  served: SimProvider | null,
): Pick<ResolvedModel, 'schemaMismatchRate' | 'unsupported' | 'wordy' | 'agentFaults' | 'streamFaults'> {
  return {
    schemaMismatchRate: served?.schemaMismatchRate ?? 0,
    unsupported: served?.unsupported ?? [],
    agentFaults: served?.agentFaults ?? {},
    streamFaults: served?.streamFaults ?? {},
    wordy: isWordy(styleFor(model, variant)),
  };
}
