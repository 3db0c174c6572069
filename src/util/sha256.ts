import { createHash } from 'node:crypto';

/** sha256 (hex) of a text as UTF-8: what a suite file's or a table's digest is. */
export function sha256(text: string | Uint8Array): string {
  return createHash('sha256').update(text).digest('hex');
}
