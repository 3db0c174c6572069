import { relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parseDocument } from 'yaml';
import { loadConfig } from '../config/load.js';
import { InputError, UsageError } from '../util/errors.js';
import { createServiceClient } from '../service/client.js';
import { fetchModelCatalog } from '../service/models.js';
import { resolveApiKey } from '../service/preflight.js';
import { isAlias } from '../adapters/alias.js';
import { adapterOf } from '../adapters/index.js';
import { findSuiteAlias, pinProviderText, pinSuiteText, providerSlug } from '../suite/pin.js';
import { simRequestHeaders } from '../sim/protocol.js';
import { serviceNamed } from '../config/services.js';
import { loadSuiteHead } from '../suite/load.js';
import type { Config, ServiceConfig } from '../config/types.js';
import type { CallOutcome } from '../service/types.js';
import type { RequestParams } from '../core/messages.js';
import { writeFileAtomic } from '../util/atomic.js';
import { READ_LIMITS } from '../util/bounded-read.js';
import { readTextFile } from '../yaml/read-text.js';
import type { CliIO } from './io.js';
import { simulateServices } from './sim-setup.js';

/**
 * `driftcheck pin SUITE…`: replaces each `~author/family-latest` alias with the concrete
 * model it points at today, keeping the file's comments and layout.
 */
export async function pinCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      config: { type: 'string' },
      service: { type: 'string' },
      sim: { type: 'boolean' },
      'dry-run': { type: 'boolean' },
      provider: { type: 'boolean' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length === 0)
    throw new UsageError('usage: driftcheck pin SUITE… [--provider] [--service NAME] [--dry-run]');
  let config = await loadConfig(values.config, io.env, io.cwd);
  let env = io.env;
  const sim = values.sim ? await simulateServices(config, env) : null;
  if (sim) ({ config, env } = sim);
  // The router, its key and its catalog are asked for only once something needs them (an
  // alias to resolve, --provider): a suite with nothing to pin needs no key and no config.
  let router: Promise<{ service: ServiceConfig; apiKey: string; resolve: AliasResolver }> | null = null;
  const routerFor = (named: ServiceConfig | null) =>
    (router ??= (async () => {
      const service = named ?? pickRouter(config, undefined);
      const apiKey = resolveApiKey(service, env);
      return { service, apiKey, resolve: await aliasResolver(service, apiKey) };
    })());
  try {
    // A --service named is checked now all the same: a typo is never passed over.
    const named = values.service !== undefined ? pickRouter(config, values.service) : null;
    let unresolved = 0;
    for (const path of positionals) {
      const file = resolve(io.cwd, path);
      const read = await readTextFile(file, relative(io.cwd, file), READ_LIMITS.suite);
      if (read.diagnostic) throw new InputError([read.diagnostic]);
      const text = read.text;
      const alias = findSuiteAlias(text);
      const concrete = alias ? await (await routerFor(named)).resolve(alias) : undefined;
      const result = pinSuiteText(text, () => concrete);
      const shown = relative(io.cwd, file);
      for (const change of result.changes)
        io.stdout(
          values['dry-run']
            ? `${shown}:${change.line}: would pin ${change.alias} → ${change.concrete} (dry run: nothing written)\n`
            : `${shown}:${change.line}: pinned ${change.alias} → ${change.concrete}\n`,
        );
      for (const alias of result.unresolved) {
        unresolved++;
        io.stderr(
          `${shown}: could not resolve ${alias} with service '${(await routerFor(named)).service.name}' (not in its model list, and a test call named no model)\n`,
        );
      }
      if (result.changes.length === 0 && result.unresolved.length === 0 && !values.provider)
        io.stdout(`${shown}: no alias to pin (its model is concrete): nothing to do\n`);
      let pinned = result.text;
      if (values.provider) {
        const { service, apiKey } = await routerFor(named);
        const outcome = await pinProvider(
          pinned,
          config.services,
          service,
          apiKey,
          values['dry-run'] === true,
          await toolParams(file, io.cwd),
        );
        io[outcome.ok ? 'stdout' : 'stderr'](
          `${shown}${outcome.line ? `:${outcome.line}` : ''}: ${outcome.message}\n`,
        );
        if (!outcome.ok) unresolved++;
        pinned = outcome.text;
      }
      if (pinned !== text && !values['dry-run']) await writeFileAtomic(file, pinned);
    }
    return unresolved ? 1 : 0;
  } finally {
    await sim?.simulator.close();
  }
}

function pickRouter(config: Config, name: string | undefined): ServiceConfig {
  if (name) return serviceNamed(config, name);
  const router = Object.values(config.services).find((s) => adapterOf(s).aliases);
  if (!router)
    throw new UsageError(
      'no router service configured: aliases belong to the routing service; pass --service NAME',
    );
  return router;
}

/** The request parameters of tool calling and structured outputs: they decide who serves a request. */
const TOOL_PARAMS = ['tools', 'tool_choice', 'parallel_tool_calls', 'response_format'] as const;

/**
 * The suite's own tool parameters (its tools file read in place), as the loader gives them
 * to a run. The router serves a request with tools by another provider than a plain one
 * (it orders providers by tool-call error rate, and under require_parameters keeps only
 * those supporting them), so the provider to pin is learned from a request carrying them.
 */
async function toolParams(file: string, cwd: string): Promise<RequestParams> {
  // The suite's own params, its tools file read in: no table read, no case expanded.
  const suite = await loadSuiteHead(resolve(cwd, file), { cwd, allowAlias: true });
  return Object.fromEntries(
    TOOL_PARAMS.flatMap((key) => (suite.params[key] !== undefined ? [[key, suite.params[key]]] : [])),
  );
}

/**
 * `pin --provider`: one minimal call to the suite's (now concrete) model, carrying the
 * suite's tool parameters when it has any (see `toolParams`), and the provider that served
 * it written as `params.provider: { only: [slug], allow_fallbacks: false }` — the router's
 * documented way to hold the provider still (guides/routing/provider-selection).
 * A suite that already sets `params.provider`, or runs on a direct service, is left alone.
 */
async function pinProvider(
  text: string,
  services: Record<string, ServiceConfig>,
  router: ServiceConfig,
  apiKey: string,
  dryRun: boolean,
  tools: RequestParams,
): Promise<{ ok: boolean; text: string; message: string; line?: number }> {
  const doc = parseDocument(text);
  const named = doc.get('service');
  if (typeof named === 'string' && services[named] && !adapterOf(services[named]).routing)
    return { ok: true, text, message: `service '${named}' is not a routing service: no provider to pin` };
  const model = doc.get('model');
  if (typeof model !== 'string' || isAlias(model))
    return { ok: false, text, message: 'pin the model first: a provider is pinned for a concrete model' };
  if (doc.hasIn(['params', 'provider']))
    return { ok: true, text, message: 'already pins its provider (params.provider); left as is' };
  const outcome = await probe(router, apiKey, model, tools);
  const served = outcome.completion?.provider;
  if (!served) {
    const why =
      outcome.status === 'error'
        ? `${outcome.error.kind}: ${outcome.error.message}`
        : 'the reply named no provider';
    return { ok: false, text, message: `could not learn which provider serves ${model} (${why})` };
  }
  const slug = providerSlug(served);
  // Not null: the suite was checked for a params.provider above.
  const written = pinProviderText(text, slug)!;
  if ('problem' in written) return { ok: false, text, message: written.problem };
  const carried = Object.keys(tools);
  // Said, because the same model without tools may be served by another provider.
  const learned =
    carried.length > 0 ? ` (learned from a request carrying the suite's ${carried.join(', ')})` : '';
  const what = `provider ${served} for ${model}${learned} → params.provider: { only: [${slug}], allow_fallbacks: false }`;
  return {
    ok: true,
    text: written.text,
    line: written.line,
    message: dryRun ? `would pin ${what} (dry run: nothing written)` : `pinned ${what}`,
  };
}

/** The catalog's alias_target first (free); else one minimal call, whose `model` is the concrete answer. */
/** The concrete model an alias points at today (undefined: the service could not say). */
type AliasResolver = (alias: string) => Promise<string | undefined>;

async function aliasResolver(service: ServiceConfig, apiKey: string): Promise<AliasResolver> {
  const catalog = await fetchModelCatalog(service, apiKey);
  return async (alias) => {
    const row = catalog?.find((m) => m.id === alias);
    if (row?.alias_target) return row.alias_target;
    const model = (await probe(service, apiKey, alias)).completion?.model;
    return model && model !== alias && !model.startsWith('~') ? model : undefined;
  };
}

/**
 * One minimal call (one token, no retry): what answers the model today, and who served it.
 * `extra` carries request parameters that decide routing (a suite's tools).
 */
async function probe(
  service: ServiceConfig,
  apiKey: string,
  model: string,
  extra: RequestParams = {},
): Promise<CallOutcome> {
  const client = createServiceClient({
    service: { ...service, retries: 0 },
    apiKey,
    requestHeaders: simRequestHeaders,
  });
  try {
    return await client.complete({
      model,
      messages: [{ role: 'user', content: 'ping' }],
      params: { ...extra, max_tokens: 1 },
    });
  } finally {
    await client.close();
  }
}
