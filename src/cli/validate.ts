import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config/load.js';
import { InputError } from '../errors.js';
import { loadSuites } from '../suite/load.js';
import type { CliIO } from './io.js';

/** `driftcheck validate`: suites and config checked as `run` would, nothing sent. */
export async function validateCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { config: { type: 'string' }, 'allow-alias': { type: 'boolean' } },
    allowPositionals: true,
    strict: true,
  });
  const config = await loadConfig(values.config, io.env, io.cwd);
  const paths = (positionals.length ? positionals : ['suites']).map((p) => resolve(io.cwd, p));
  const suites = await loadSuites(paths, { allowAlias: Boolean(values['allow-alias']), cwd: io.cwd });
  const unknown = suites.filter((s) => !config.services[s.service]);
  if (unknown.length) {
    throw new InputError(
      unknown.map((s) => ({
        ...s.location,
        message: `service '${s.service}' is not configured`,
        hint: `configured services: ${Object.keys(config.services).join(', ')}; add it to ${config.file ?? 'driftcheck.config.yaml'} or change 'service:'`,
      })),
    );
  }
  const cases = suites.reduce((n, s) => n + s.cases.length, 0);
  io.stdout(
    `ok: ${suites.length} suite(s), ${cases} case(s); config ${config.file ?? '(built-in defaults)'} with ${Object.keys(config.services).length} service(s)\n`,
  );
  return 0;
}
