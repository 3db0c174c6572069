/**
 * The simulator's model catalog: which ids each platform knows, what they cost and how
 * `~author/family-latest` aliases resolve. Pure data and lookups; the alias move counter
 * lives in the simulator state.
 */

import type { CatalogModel } from '../core/catalog.js';
import type { SimFlavour } from '../adapters/index.js';
import type { SimAgentFault, SimStreamFault } from '../suite/types.js';

/** One upstream that serves a router model (the router load-balances between them). */
export interface SimProvider {
  /** The name the router reports in a reply's `provider`. */
  name: string;
  /** The slug routing preferences name it by (`provider.only`, `order`, `ignore`). */
  slug: string;
  quantization: string;
  /**
   * A standing trait: the share of tool calls (and non-strict structured answers) whose
   * arguments miss the declared schema, as one public verifier measured providers of one
   * model from 72 % to 100 % schema-valid (service-facts.md, tools section).
   */
  schemaMismatchRate: number;
  /** Request parameters this upstream does not support: it ignores them unless the router filters it out. */
  unsupported: readonly ToolParameter[];
  /**
   * Standing traits in tool loops: for each way the model, as this upstream serves it, plays a
   * loop wrong (SimAgentFault), the share of requests it does so (by seeded coins).
   */
  agentFaults: Readonly<Partial<Record<SimAgentFault, number>>>;
  /** Standing traits of its streams: for each way they go wrong (SimStreamFault), the share of requests hit. */
  streamFaults: Readonly<Partial<Record<SimStreamFault, number>>>;
  /** How fast it generates the model's output, in tokens per second; null: the model's own rate (providerRate). */
  tokensPerS: number | null;
}

/** The request parameters of tool calling and structured outputs, as provider support is listed by. */
export type ToolParameter = 'tools' | 'tool_choice' | 'parallel_tool_calls' | 'response_format';

export interface RouterModel {
  id: string;
  name: string;
  /**
   * Who serves it, the default first. Another provider answers in its own words (other
   * hardware, another quantisation), which is what makes a provider change a drift.
   */
  providers: readonly SimProvider[];
  created: number;
  context_length: number;
  /** USD per token, as the router's /models lists them. */
  pricing: { prompt: string; completion: string };
  /**
   * A reasoning model: it thinks before it answers, and its answers carry the thinking as
   * `reasoning` and `reasoning_details`, its tokens counted in `completion_tokens` and in
   * `completion_tokens_details.reasoning_tokens` (the router's reasoning-tokens guide).
   */
  reasoning: boolean;
  /** How fast its default provider generates output, in tokens per second (another provider may differ). */
  tokensPerS: number;
}

export interface RouterAlias {
  id: string;
  name: string;
  /** Concrete ids of the family, oldest first; the alias moves along this list. */
  family: string[];
}

export interface DirectModel {
  id: string;
  created: number;
  owned_by: string;
  /**
   * A reasoning model, as OpenAI's are (service-facts.md, fourth round): it thinks before it
   * answers, its reasoning tokens counted in `completion_tokens` and in
   * `completion_tokens_details.reasoning_tokens` and capped with the answer by
   * `max_completion_tokens`; it refuses `max_tokens` (HTTP 400, `unsupported_parameter`).
   */
  reasoning?: true;
  /** How fast it generates output, in tokens per second. */
  tokensPerS: number;
}

/** What a model answers at most (the catalog's `max_completion_tokens`), and so when a request sets no cap. */
export const MAX_COMPLETION_TOKENS = 16_384;

const SUPPORTED_PARAMETERS = [
  'max_tokens',
  'temperature',
  'top_p',
  'seed',
  'stop',
  'reasoning',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'response_format',
  'structured_outputs',
];

export const ROUTER_MODELS: readonly RouterModel[] = [
  model(
    'openai/gpt-4o-mini',
    'OpenAI: GPT-4o-mini',
    'OpenAI',
    1721260800,
    128000,
    '0.00000015',
    '0.0000006',
    {
      tokensPerS: 150,
    },
  ),
  model(
    'openai/gpt-4o',
    'OpenAI: GPT-4o',
    // Azure serves it faster than OpenAI does (simulated).
    [upstream('OpenAI'), upstream('Azure', 'unknown', { tokensPerS: 140 })],
    1715558400,
    128000,
    '0.0000025',
    '0.00001',
    { tokensPerS: 100 },
  ),
  model(
    'anthropic/claude-sonnet-4.5',
    'Anthropic: Claude Sonnet 4.5',
    // Upstreams that differ in how they stream (simulated): Anthropic, the default, streams
    // cleanly; Amazon Bedrock pauses mid-stream in one request in ten (for `stall_ms`, 90 s by
    // default: longer than a client's time-out) and generates a little slower; Google Vertex
    // is slow to the first token, then keeps Anthropic's pace.
    [
      upstream('Anthropic'),
      upstream('Amazon Bedrock', 'unknown', { streamFaults: { stall: 0.1 }, tokensPerS: 60 }),
      upstream('Google Vertex', 'unknown', { streamFaults: { slow_first_token: 1 } }),
    ],
    1759161600,
    1000000,
    '0.000003',
    '0.000015',
    { tokensPerS: 80 },
  ),
  model(
    'anthropic/claude-opus-4.1',
    'Anthropic: Claude Opus 4.1',
    'Anthropic',
    1754352000,
    200000,
    '0.000015',
    '0.000075',
    { tokensPerS: 50 },
  ),
  model(
    'anthropic/claude-opus-4.5',
    'Anthropic: Claude Opus 4.5',
    'Anthropic',
    1763942400,
    200000,
    '0.000005',
    '0.000025',
    { tokensPerS: 70 },
  ),
  model(
    'meta-llama/llama-3.3-70b-instruct',
    'Meta: Llama 3.3 70B Instruct',
    // Three upstreams that differ in tool calling as real ones do: DeepInfra, the default, gets
    // one call in ten wrong against the schema (so the router's Auto Exacto sends tool requests
    // to Together first); Groq does not support response_format and ignores it unless the
    // request sets provider.require_parameters. They differ in speed too: Groq generates three
    // times as fast as DeepInfra.
    [
      upstream('DeepInfra', 'bf16', { schemaMismatchRate: 0.1 }),
      upstream('Together', 'fp8', { tokensPerS: 150 }),
      upstream('Groq', 'fp8', { unsupported: ['response_format'], tokensPerS: 300 }),
    ],
    1733443200,
    131072,
    '0.00000013',
    '0.0000004',
    { tokensPerS: 100 },
  ),
  model(
    'moonshotai/kimi-k2-thinking',
    'MoonshotAI: Kimi K2 Thinking',
    // A reasoning model whose upstreams differ in tool loops (all simulated): Moonshot AI, the
    // default, plays them cleanly; Together loops on a call in one request in five; Fireworks
    // makes parallel calls in reverse order and ignores a result in one request in ten; Chutes
    // stops a step early in one in five and, given a turn without its reasoning_details, loses
    // the thread.
    [
      upstream('Moonshot AI', 'int4'),
      upstream('Together', 'fp8', { agentFaults: { loop: 0.2 }, tokensPerS: 120 }),
      upstream('Fireworks', 'fp8', { agentFaults: { reorder: 1, ignore_result: 0.1 }, tokensPerS: 150 }),
      upstream('Chutes', 'fp8', { agentFaults: { stop_early: 0.2, drop_reasoning: 1 }, tokensPerS: 80 }),
    ],
    1762387200,
    262144,
    '0.0000006',
    '0.0000025',
    { tokensPerS: 100, reasoning: true },
  ),
];

const ROUTER_ALIASES: readonly RouterAlias[] = [
  {
    id: '~anthropic/claude-opus-latest',
    name: 'Anthropic: Claude Opus (latest)',
    family: ['anthropic/claude-opus-4.1', 'anthropic/claude-opus-4.5'],
  },
  {
    id: '~anthropic/claude-sonnet-latest',
    name: 'Anthropic: Claude Sonnet (latest)',
    family: ['anthropic/claude-sonnet-4.5'],
  },
  { id: '~openai/gpt-mini-latest', name: 'OpenAI: GPT mini (latest)', family: ['openai/gpt-4o-mini'] },
];

const DIRECT_MODELS: readonly DirectModel[] = [
  { id: 'kimi-k2-0905-preview', created: 1757030400, owned_by: 'moonshot', tokensPerS: 100 },
  // The turbo variant is the same model served faster.
  { id: 'kimi-k2-turbo-preview', created: 1754006400, owned_by: 'moonshot', tokensPerS: 150 },
  { id: 'moonshot-v1-8k', created: 1712102400, owned_by: 'moonshot', tokensPerS: 100 },
  // An OpenAI reasoning model: the direct service is OpenAI-compatible, and OpenAI documents
  // (and answers) the max_tokens refusal this model stands for.
  { id: 'o4-mini', created: 1744761600, owned_by: 'openai', reasoning: true, tokensPerS: 150 },
];

const routerById = new Map(ROUTER_MODELS.map((m) => [m.id, m]));
const aliasById = new Map(ROUTER_ALIASES.map((a) => [a.id, a]));
const directById = new Map(DIRECT_MODELS.map((m) => [m.id, m]));

function model(
  id: string,
  name: string,
  providers: string | readonly SimProvider[],
  created: number,
  context_length: number,
  prompt: string,
  completion: string,
  traits: { tokensPerS: number; reasoning?: true },
): RouterModel {
  const served = typeof providers === 'string' ? [upstream(providers)] : providers;
  return {
    id,
    name,
    providers: served,
    created,
    context_length,
    pricing: { prompt, completion },
    reasoning: traits.reasoning === true,
    tokensPerS: traits.tokensPerS,
  };
}

/**
 * An upstream by name; without traits it supports every parameter, never misses a schema,
 * streams cleanly and generates at the model's rate.
 */
export function upstream(
  name: string,
  quantization = 'unknown',
  traits: Partial<
    Pick<SimProvider, 'schemaMismatchRate' | 'unsupported' | 'agentFaults' | 'streamFaults' | 'tokensPerS'>
  > = {},
): SimProvider {
  return {
    name,
    slug: name.toLowerCase().replace(/\s+/g, '-'),
    quantization,
    schemaMismatchRate: traits.schemaMismatchRate ?? 0,
    unsupported: traits.unsupported ?? [],
    agentFaults: traits.agentFaults ?? {},
    streamFaults: traits.streamFaults ?? {},
    tokensPerS: traits.tokensPerS ?? null,
  };
}

/** How fast `provider` generates `model`'s output, in tokens per second: its own rate, else the model's. */
export function providerRate(model: RouterModel, provider: SimProvider): number {
  return provider.tokensPerS ?? model.tokensPerS;
}

export function findRouterModel(id: string): RouterModel | undefined {
  return routerById.get(id);
}

export function findAlias(id: string): RouterAlias | undefined {
  return aliasById.get(id);
}

export function findDirectModel(id: string): DirectModel | undefined {
  return directById.get(id);
}

/**
 * The concrete model an alias points at after `resolutions` earlier alias resolutions.
 * With `moveAfter` null the alias sits on the newest family member; otherwise it starts
 * on the oldest and moves one step newer every `moveAfter` resolutions.
 */
export function aliasTarget(alias: RouterAlias, resolutions: number, moveAfter: number | null): RouterModel {
  const last = alias.family.length - 1;
  const index =
    moveAfter === null || moveAfter <= 0 ? last : Math.min(last, Math.floor(resolutions / moveAfter));
  return routerById.get(alias.family[index] ?? alias.family[last]!)!;
}

/** USD cost of one completion, rounded so float noise never shows up as usage drift. */
export function routerCost(m: RouterModel, promptTokens: number, completionTokens: number): number {
  const raw = Number(m.pricing.prompt) * promptTokens + Number(m.pricing.completion) * completionTokens;
  return Math.round(raw * 1e10) / 1e10;
}

/** `GET /api/v1/models`: concrete rows, then alias rows showing their current target. */
export function routerModelsBody(resolutions: number, moveAfter: number | null): unknown {
  // The documented Model fields (OpenAPI `Model`), so clients that validate the list accept it.
  const row = (m: RouterModel, id = m.id, name = m.name) => ({
    id,
    canonical_slug: id,
    name,
    created: m.created,
    description: `${name} (simulated)`,
    context_length: m.context_length,
    architecture: {
      modality: 'text->text',
      input_modalities: ['text'],
      output_modalities: ['text'],
      tokenizer: 'Other',
      instruct_type: null,
    },
    pricing: { prompt: m.pricing.prompt, completion: m.pricing.completion, request: '0' },
    top_provider: {
      context_length: m.context_length,
      max_completion_tokens: MAX_COMPLETION_TOKENS,
      is_moderated: false,
    },
    per_request_limits: null,
    supported_parameters: SUPPORTED_PARAMETERS,
    default_parameters: { temperature: null, top_p: null, frequency_penalty: null },
    supported_voices: null,
    links: { details: `/api/v1/models/${id}/endpoints` },
    expiration_date: null,
  });
  const aliases = ROUTER_ALIASES.map((a) => {
    const target = aliasTarget(a, resolutions, moveAfter);
    return { ...row(target, a.id, a.name), alias_target: { slug: target.id, name: target.name } };
  });
  const data = [...ROUTER_MODELS.map((m) => row(m)), ...aliases];
  return { data, links: { next: null }, total_count: data.length };
}

/** Each upstream the router has, by slug, once: `GET /api/v1/providers`. */
function routerProviders(): SimProvider[] {
  const bySlug = new Map<string, SimProvider>();
  for (const m of ROUTER_MODELS) for (const p of m.providers) if (!bySlug.has(p.slug)) bySlug.set(p.slug, p);
  return [...bySlug.values()];
}

/** `GET /api/v1/providers` (OpenAPI `listProviders`): every provider's name and slug, with its policy links. */
export function routerProvidersBody(): unknown {
  return {
    data: routerProviders().map((p) => ({
      name: p.name,
      slug: p.slug,
      privacy_policy_url: `https://${p.slug}.example/privacy`,
      terms_of_service_url: `https://${p.slug}.example/terms`,
      status_page_url: null,
    })),
  };
}

/**
 * `GET /api/v1/models/{author}/{slug}/endpoints` (OpenAPI `listEndpoints`, `ListEndpointsResponse`):
 * the model and one PublicEndpoint per provider serving it, `tag` its slug. Null for a model
 * the catalog does not have (the router answers 404).
 */
export function routerEndpointsBody(id: string): unknown {
  const m = findRouterModel(id);
  if (!m) return null;
  const percentiles = { p50: 0.25, p75: 0.35, p90: 0.48, p99: 0.85 };
  return {
    data: {
      id: m.id,
      name: m.name,
      created: m.created,
      description: `${m.name} (simulated)`,
      architecture: {
        modality: 'text->text',
        input_modalities: ['text'],
        output_modalities: ['text'],
        tokenizer: 'Other',
        instruct_type: null,
      },
      endpoints: m.providers.map((p) => ({
        name: `${p.name} | ${m.id}`,
        model_id: m.id,
        model_name: m.name,
        context_length: m.context_length,
        pricing: { prompt: m.pricing.prompt, completion: m.pricing.completion, request: '0', image: '0' },
        provider_name: p.name,
        tag: p.slug,
        quantization: p.quantization,
        max_completion_tokens: MAX_COMPLETION_TOKENS,
        max_prompt_tokens: null,
        status: 0,
        supported_parameters: SUPPORTED_PARAMETERS.filter(
          (x) => !(p.unsupported as readonly string[]).includes(x),
        ),
        supports_implicit_caching: false,
        uptime_last_30m: 100,
        uptime_last_5m: 100,
        uptime_last_1d: 100,
        latency_last_30m: percentiles,
        throughput_last_30m: throughputPercentiles(providerRate(m, p)),
      })),
    },
  };
}

/**
 * An endpoint's throughput over the last 30 minutes as the router lists it (tokens per second,
 * the slower percentiles lower): the provider's rate at the median.
 */
function throughputPercentiles(tokensPerS: number): Record<'p50' | 'p75' | 'p90' | 'p99', number> {
  const at = (share: number) => Math.round(tokensPerS * share);
  return { p50: tokensPerS, p75: at(0.9), p90: at(0.7), p99: at(0.35) };
}

/** The router catalog as driftcheck reads one (service/models.ts): concrete ids, then aliases with today's target. */
export function simModelCatalog(): CatalogModel[] {
  return [
    ...ROUTER_MODELS.map((m) => ({ id: m.id, alias_target: null })),
    ...ROUTER_ALIASES.map((a) => ({ id: a.id, alias_target: aliasTarget(a, 0, null).id })),
  ];
}

/** The model `driftcheck verify --sim` calls on each flavour: one each service lists. */
export const SIM_VERIFY_MODELS: Record<SimFlavour, string> = {
  router: 'openai/gpt-4o-mini',
  direct: 'kimi-k2-0905-preview',
};

/** `GET /v1/models` in the OpenAI-compatible list shape. */
export function directModelsBody(): unknown {
  return {
    object: 'list',
    data: DIRECT_MODELS.map((m) => ({ id: m.id, object: 'model', created: m.created, owned_by: m.owned_by })),
  };
}
