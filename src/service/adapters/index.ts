import type { ServiceKind } from '../../types.js';
import { direct } from './direct.js';
import { router } from './router.js';
import type { ServiceAdapter } from './types.js';

export type { ServiceAdapter } from './types.js';

/** One adapter per service kind: defaults, key shape, request body, classification. */
export const ADAPTERS: Record<ServiceKind, ServiceAdapter> = { router, direct };
