import { dirname, resolve } from 'node:path';
import { file as findUp } from 'empathic/find';
import { InputError } from '../util/errors.js';
import type { Config } from './types.js';
import { displayPath } from '../yaml/display-path.js';
import { READ_LIMITS } from '../util/bounded-read.js';
import { readTextFile } from '../yaml/read-text.js';
import { defaultConfig } from './defaults.js';
import { parseConfig } from './parse.js';

/** The config file `run`, `verify` and `validate` pick up from the working folder. */
export const DEFAULT_CONFIG_FILE = 'driftcheck.config.yaml';

/**
 * The project a command works in: the config named by `--config`, else the nearest
 * `driftcheck.config.yaml` in `cwd` or a folder above it (as eslint and vitest find theirs),
 * and the project root — that config's folder, else `cwd` — against which `suites/`,
 * `baselines/` and `reports/` default. A command run from `suites/` works on the project.
 */
export function findProject(
  cwd: string,
  configFlag?: string,
): { configFile: string | undefined; root: string } {
  if (configFlag !== undefined) {
    const configFile = resolve(cwd, configFlag);
    return { configFile, root: dirname(configFile) };
  }
  const found = findUp(DEFAULT_CONFIG_FILE, { cwd });
  return { configFile: found, root: found ? dirname(found) : cwd };
}

/**
 * Reads the config named by `--config`, else the nearest `driftcheck.config.yaml` in `cwd`
 * or above it, else the built-in defaults. Throws InputError with every problem found.
 */
export async function loadConfig(
  file: string | undefined,
  env: NodeJS.ProcessEnv,
  cwd: string = process.cwd(),
): Promise<Config> {
  const path = findProject(cwd, file).configFile;
  if (path === undefined) return defaultConfig(env);
  const shown = displayPath(path, cwd);
  const read = await readTextFile(path, shown, READ_LIMITS.config);
  if (read.diagnostic) throw new InputError([read.diagnostic]);
  const parsed = parseConfig(read.text, shown, env);
  if (parsed.errors) throw new InputError(parsed.errors);
  return parsed.value;
}
