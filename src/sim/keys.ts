import { randomBytes } from 'node:crypto';
import type { SimFlavour } from '../adapters/index.js';

const ROUTER_PREFIX = 'sk-or-';
const DIRECT_PREFIX = 'sk-';
const MIN_KEY_LENGTH = 20;
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Generates a fresh random key of the platform's shape (used by run --sim). */
export function generateSimKey(kind: SimFlavour): string {
  if (kind === 'router') return `${ROUTER_PREFIX}v1-${randomBytes(32).toString('hex')}`;
  const bytes = randomBytes(48);
  let body = '';
  for (const byte of bytes) body += BASE62[byte % BASE62.length];
  return `${DIRECT_PREFIX}${body}`;
}

/** Which platform a key's shape belongs to, or null when it fits neither. */
export function keyShape(key: string): SimFlavour | null {
  if (key.length < MIN_KEY_LENGTH || /\s/.test(key)) return null;
  if (key.startsWith(ROUTER_PREFIX)) return 'router';
  if (key.startsWith(DIRECT_PREFIX)) return 'direct';
  return null;
}

/** The Bearer token of an Authorization header, or null when the header is missing or garbled. */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer +(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

/** How real services quote a key back: the first five and last four characters only. */
export function maskKey(key: string): string {
  if (key.length < 12) return '****';
  return `${key.slice(0, 5)}****${key.slice(-4)}`;
}
