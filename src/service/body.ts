import type { Dispatcher } from 'undici';

export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;

/** A response body read up to a cap: the text, or how far it got before the cap. */
export type BodyRead = { status: 'ok'; text: string } | { status: 'too_large'; bytes: number };

/**
 * Reads a response body but stops (and drops the connection) past `maxBytes`, so a
 * runaway or hostile answer cannot exhaust memory. Stream errors propagate to the caller.
 */
export async function readCappedBody(
  body: Dispatcher.ResponseData['body'],
  maxBytes: number,
  declaredLength: number | null,
): Promise<BodyRead> {
  if (declaredLength !== null && declaredLength > maxBytes) {
    body.destroy();
    return { status: 'too_large', bytes: declaredLength };
  }
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of body) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    bytes += buffer.length;
    if (bytes > maxBytes) {
      body.destroy();
      return { status: 'too_large', bytes };
    }
    chunks.push(buffer);
  }
  return { status: 'ok', text: Buffer.concat(chunks).toString('utf8') };
}

/** Parses JSON without throwing: `undefined` marks "not JSON" (JSON itself has no undefined). */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
