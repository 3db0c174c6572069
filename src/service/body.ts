export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;

/** Parses JSON without throwing: `undefined` marks "not JSON" (JSON itself has no undefined). */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
