import { resolve } from 'node:path';
import { findProject } from '../config/load.js';
import type { Config } from '../types.js';
import type { CliIO } from './io.js';

/**
 * Where a command's folders are: a path given on the command line is the user's, relative
 * to the working folder; a default (`suites/`, `baselines/`, `reports/`) is the project's,
 * relative to its root (the config's folder), so a command run from a subfolder works on
 * the project and never writes a stray `suites/reports/`.
 */
export function projectPaths(io: CliIO, configFlag?: string) {
  const { root } = findProject(io.cwd, configFlag);
  return {
    root,
    dir: (given: string | undefined, fallback: string): string =>
      given !== undefined ? resolve(io.cwd, given) : resolve(root, fallback),
    /** `--history DIR` (the user's), else the config's `history: { dir }` (the config's folder's), else none. */
    history: (given: string | undefined, config: Pick<Config, 'history'> | null): string | null =>
      given !== undefined
        ? resolve(io.cwd, given)
        : config?.history
          ? resolve(root, config.history.dir)
          : null,
  };
}
