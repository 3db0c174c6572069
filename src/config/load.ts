import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { InputError } from '../errors.js';
import type { Config } from '../types.js';
import { displayPath } from '../yaml/display-path.js';
import { readTextFile } from '../yaml/read-text.js';
import { defaultConfig } from './defaults.js';
import { parseConfig } from './parse.js';

/** The config file `run`, `verify` and `validate` pick up from the working folder. */
export const DEFAULT_CONFIG_FILE = 'driftcheck.config.yaml';

/**
 * Reads the config named by `--config`, else `driftcheck.config.yaml` in `cwd` when it
 * exists, else the built-in defaults. Throws InputError with every problem found.
 */
export async function loadConfig(
  file: string | undefined,
  env: NodeJS.ProcessEnv,
  cwd: string = process.cwd(),
): Promise<Config> {
  let path: string;
  if (file !== undefined) path = resolve(cwd, file);
  else {
    path = resolve(cwd, DEFAULT_CONFIG_FILE);
    const present = await stat(path).then(
      (s) => s.isFile(),
      () => false,
    );
    if (!present) return defaultConfig(env);
  }
  const shown = displayPath(path, cwd);
  const read = await readTextFile(path, shown);
  if (read.diagnostic) throw new InputError([read.diagnostic]);
  const parsed = parseConfig(read.text, shown, env);
  if (parsed.errors) throw new InputError(parsed.errors);
  return parsed.value;
}
