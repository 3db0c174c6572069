import { resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { DEFAULT_CONFIG_FILE, findProject } from '../config/load.js';
import { UsageError } from '../util/errors.js';
import type { Config } from '../config/types.js';
import type { CliIO } from './io.js';

/**
 * Where a command's folders are: a path given on the command line is the user's, relative
 * to the working folder; a default (`suites/`, `baselines/`, `reports/`) is the project's,
 * relative to its root (the config's folder), so a command run from a subfolder works on
 * the project and never writes a stray `suites/reports/`.
 */
export function projectPaths(io: Pick<CliIO, 'cwd'>, configFlag?: string) {
  const { configFile, root } = findProject(io.cwd, configFlag);
  return {
    root,
    dir: (given: string | undefined, fallback: string): string =>
      given !== undefined ? resolve(io.cwd, given) : resolve(root, fallback),
    /**
     * The default suites (`suites/` at the project's root). Outside any project — no config
     * here or above, and no `suites/` here — that is said, with how to start one, rather than
     * "suites: no such file or folder".
     */
    suites: (): string => {
      const suites = resolve(root, 'suites');
      if (configFile === undefined && !existsSync(suites))
        throw new UsageError(
          `no ${DEFAULT_CONFIG_FILE} here or in any folder above, and no suites/ folder here: not a driftcheck project\n  → run 'driftcheck init' to start one here (a commented config and an example suite), or give the suite files or folders to use`,
        );
      return suites;
    },
    /** `--history DIR` (the user's), else the config's `history: { dir }` (the config's folder's), else none. */
    history: (given: string | undefined, config: Pick<Config, 'history'> | null): string | null =>
      given !== undefined
        ? resolve(io.cwd, given)
        : config?.history
          ? resolve(root, config.history.dir)
          : null,
  };
}

/** A command's project, located: its root and where its folders are. */
export type ProjectPaths = ReturnType<typeof projectPaths>;
