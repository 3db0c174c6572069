/** A plain JSON object (not null, not an array): what data read from a file or a service is checked with before its keys are read. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
