import { isAbsolute, relative } from 'node:path';

/** Relative to cwd when the file lies inside it (shorter, same on every machine), else absolute. */
export function displayPath(absolute: string, cwd: string): string {
  const rel = relative(cwd, absolute);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? absolute : rel;
}
