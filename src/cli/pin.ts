import { readFile } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config/load.js';
import { UsageError } from '../errors.js';
import { createServiceClient } from '../service/client.js';
import { fetchModelCatalog } from '../service/models.js';
import { resolveApiKey } from '../service/preflight.js';
import { findSuiteAlias, pinSuiteText } from '../suite/pin.js';
import { simRequestHeaders } from '../sim/protocol.js';
import type { ServiceConfig } from '../types.js';
import { writeFileAtomic } from '../util/atomic.js';
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
    },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length === 0)
    throw new UsageError('usage: driftcheck pin SUITE… [--service NAME] [--dry-run]');
  let config = await loadConfig(values.config, io.env, io.cwd);
  let env = io.env;
  const sim = values.sim ? await simulateServices(config, env) : null;
  if (sim) ({ config, env } = sim);
  try {
    const service = pickRouter(config.services, values.service);
    const apiKey = resolveApiKey(service, env);
    const resolver = await aliasResolver(service, apiKey);
    let unresolved = 0;
    for (const path of positionals) {
      const file = resolve(io.cwd, path);
      const text = await readFile(file, 'utf8');
      const alias = findSuiteAlias(text);
      const concrete = alias ? await resolver(alias) : undefined;
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
          `${shown}: could not resolve ${alias} with service '${service.name}' (not in its model list, and a test call named no model)\n`,
        );
      }
      if (result.changes.length === 0 && result.unresolved.length === 0)
        io.stdout(`${shown}: no alias to pin\n`);
      if (result.changes.length > 0 && !values['dry-run']) await writeFileAtomic(file, result.text);
    }
    return unresolved ? 1 : 0;
  } finally {
    await sim?.simulator.close();
  }
}

function pickRouter(services: Record<string, ServiceConfig>, name: string | undefined): ServiceConfig {
  if (name) {
    const service = services[name];
    if (!service) throw new UsageError(`--service: '${name}' is not configured`);
    return service;
  }
  const router = Object.values(services).find((s) => s.kind === 'router');
  if (!router)
    throw new UsageError(
      'no router service configured: aliases belong to the routing service; pass --service NAME',
    );
  return router;
}

/** The catalog's alias_target first (free); else one minimal call, whose `model` is the concrete answer. */
async function aliasResolver(
  service: ServiceConfig,
  apiKey: string,
): Promise<(alias: string) => Promise<string | undefined>> {
  const catalog = await fetchModelCatalog(service, apiKey);
  return async (alias) => {
    const row = catalog?.find((m) => m.id === alias);
    if (row?.alias_target) return row.alias_target;
    const client = createServiceClient({
      service: { ...service, retries: 0 },
      apiKey,
      requestHeaders: simRequestHeaders,
    });
    try {
      const outcome = await client.complete({
        model: alias,
        messages: [{ role: 'user', content: 'ping' }],
        params: { max_tokens: 1 },
      });
      const model = outcome.completion?.model;
      return model && model !== alias && !model.startsWith('~') ? model : undefined;
    } finally {
      await client.close();
    }
  };
}
