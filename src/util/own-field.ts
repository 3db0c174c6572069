/**
 * Sets `key` on `out` as an own, enumerable data field. A key `__proto__` (user text: a
 * row's column, a file's field) is defined, since assigning it would set the prototype.
 */
export function setField(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}
