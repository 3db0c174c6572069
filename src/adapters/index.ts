import { direct } from './direct.js';
import { router } from './router.js';
import type { ServiceAdapter } from './types.js';

export type { ServiceAdapter } from './types.js';

/** One adapter per service kind: defaults, key shape, request body, classification. */
export const ADAPTERS = { router, direct } as const satisfies Record<string, ServiceAdapter>;

/** The kinds of service a config may name: one per adapter. */
export type ServiceKind = keyof typeof ADAPTERS;
