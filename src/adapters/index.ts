import { direct } from './direct.js';
import { router } from './router.js';
import type { ServiceAdapter } from './types.js';

export type { ServiceAdapter, SimFlavour } from './types.js';

/**
 * One adapter per service kind: what differs between kinds (defaults, verify's first request,
 * key shape, parameters, aliases, provider routing, model list, model id shape, error
 * classification, simulator flavour). The config schema's `kind` enum is written from its keys.
 */
export const ADAPTERS = { router, direct } as const satisfies Record<string, ServiceAdapter>;

/** The kinds of service a config may name: one per adapter. */
export type ServiceKind = keyof typeof ADAPTERS;

/** Every kind, in the registry's order. */
export function serviceKinds(): ServiceKind[] {
  return Object.keys(ADAPTERS) as ServiceKind[];
}

/** The adapter of a service (anything with a `kind`): what to ask instead of comparing kind names. */
export function adapterOf(service: { kind: ServiceKind }): ServiceAdapter {
  return ADAPTERS[service.kind];
}
