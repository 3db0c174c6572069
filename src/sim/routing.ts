import { type RouterModel, type SimProvider, type ToolParameter, upstream } from './catalog.js';

/** What a request's `provider` preferences ask of the router (those the simulator acts on). */
export interface RoutingPreferences {
  order?: readonly string[];
  only?: readonly string[];
  ignore?: readonly string[];
  allow_fallbacks?: boolean;
  quantizations?: readonly string[];
  /** Only providers that support every parameter of the request may serve it. */
  require_parameters?: boolean;
  sort?: string;
}

/** The provider that serves, or why none may: the preferences exclude all, or none supports the request's parameters. */
export type Routed = { provider: SimProvider } | { none: 'preferences' | 'parameters' | 'tool_use' };

/**
 * The provider that serves a request, following the documented preferences
 * (guides/routing/provider-selection): `only` and `ignore` filter by slug or name,
 * `quantizations` by precision, `order` is tried first and, with `allow_fallbacks: false`,
 * is all that may serve. `tonight` is the provider the router would pick on its own (a
 * sim directive moving the load balancer); an explicit `order` outranks it, and one the
 * filters exclude is never used.
 *
 * Parameters (`carries`: those the request sets): a request with `tools` goes only to
 * providers that support tool use; with `require_parameters: true`, only to those that
 * support every parameter it carries (otherwise an upstream ignores what it does not
 * support). A request with tools and no `sort` has its providers reordered by their
 * tool-call error rate, lowest first (the router's "Auto Exacto"), so it may be served by
 * another provider than a plain request.
 */
export function chooseProvider(
  model: RouterModel,
  prefs: RoutingPreferences | undefined,
  tonight: string | undefined,
  carries: readonly ToolParameter[] = [],
): Routed {
  const named = (list: readonly string[] | undefined, p: SimProvider) =>
    list?.some((n) => n.toLowerCase() === p.slug || n.toLowerCase() === p.name.toLowerCase()) ?? false;
  // A directive may name a provider the catalog does not list: it serves as an extra upstream.
  const extra = tonight && !model.providers.some((p) => named([tonight], p)) ? [upstream(tonight)] : [];
  const allowed = [...model.providers, ...extra].filter(
    (p) =>
      (prefs?.only === undefined || named(prefs.only, p)) &&
      !named(prefs?.ignore, p) &&
      (prefs?.quantizations === undefined || prefs.quantizations.includes(p.quantization)),
  );
  if (allowed.length === 0) return { none: 'preferences' };
  const needed = prefs?.require_parameters === true ? carries : carries.filter((c) => c === 'tools');
  let candidates = allowed.filter((p) => needed.every((n) => !p.unsupported.includes(n)));
  if (candidates.length === 0)
    return { none: prefs?.require_parameters === true ? 'parameters' : 'tool_use' };
  if (carries.includes('tools') && prefs?.sort === undefined)
    candidates = [...candidates].sort((a, b) => a.schemaMismatchRate - b.schemaMismatchRate);
  if (prefs?.order !== undefined) {
    const first = prefs.order.flatMap((n) => candidates.filter((p) => named([n], p)))[0];
    if (first) return { provider: first };
    if (prefs.allow_fallbacks === false) return { none: 'preferences' };
  }
  const served = candidates.find((p) => tonight !== undefined && named([tonight], p)) ?? candidates[0]!;
  return { provider: served };
}
