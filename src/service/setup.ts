import type { Dispatcher } from 'undici';
import type { Config, ServiceConfig } from '../config/types.js';
import type { CompletionRequest, ServiceClient } from './types.js';
import { createServiceClient } from './client.js';
import { resolveApiKey } from './preflight.js';
import { createRedactor } from './redact.js';

export interface OpenedClients {
  clients: Map<string, ServiceClient>;
  close(): Promise<void>;
}

/**
 * Pre-flight and clients for the services a run will call: every key is resolved before
 * the first request (a missing key must cost nothing), then one client per service. Every
 * client redacts all of these keys from what it reads, so no answer carries any of them.
 */
export function openClients(
  config: Config,
  services: readonly string[],
  env: NodeJS.ProcessEnv,
  options: {
    dispatcher?: Dispatcher;
    requestHeaders?: (service: ServiceConfig, request: CompletionRequest) => Record<string, string>;
  } = {},
): OpenedClients {
  const keys = new Map(services.map((name) => [name, resolveApiKey(config.services[name]!, env)]));
  const redactor = createRedactor([...keys.values()]);
  const clients = new Map<string, ServiceClient>();
  for (const name of services) {
    const service = config.services[name]!;
    clients.set(
      name,
      createServiceClient({
        service,
        apiKey: keys.get(name)!,
        redactor,
        ...(options.requestHeaders ? { requestHeaders: options.requestHeaders } : {}),
        ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
      }),
    );
  }
  return {
    clients,
    async close() {
      await Promise.all([...clients.values()].map((c) => c.close()));
    },
  };
}
