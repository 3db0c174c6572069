import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config/load.js';
import { unconfiguredServices } from '../config/services.js';
import { InputError } from '../util/errors.js';
import { loadSuites } from '../suite/load.js';
import { countOf } from '../util/numbers.js';
import { type CliIO, warnTo } from './io.js';
import { projectPaths } from './project.js';

/** `driftcheck validate`: suites and config checked as `run` would, nothing sent. */
export async function validateCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { config: { type: 'string' }, 'allow-alias': { type: 'boolean' } },
    allowPositionals: true,
    strict: true,
  });
  const config = await loadConfig(values.config, io.env, io.cwd);
  const paths = positionals.length
    ? positionals.map((p) => resolve(io.cwd, p))
    : [projectPaths(io, values.config).suites()];
  let warnings = 0;
  const suites = await loadSuites(paths, {
    // Every case is made and checked as it is read, then let go: a suite keeps its counts and
    // judges, and nothing to read it again with (validate never does).
    cases: 'checked',
    allowAlias: Boolean(values['allow-alias']),
    cwd: io.cwd,
    // Nothing is sent: no catalog is read, the alias hint names `driftcheck pin FILE`.
    onWarnings: (found) => {
      warnings = found.length;
      warnTo(io, 'validate')(found);
    },
  });
  const unknown = unconfiguredServices(suites, config);
  if (unknown.length) throw new InputError(unknown);
  const cases = suites.reduce((n, s) => n + (s.counts?.cases ?? 0), 0);
  const tables = suites.flatMap((s) => s.tables ?? []);
  const fromTables = tables.length
    ? ` (${countOf(
        tables.reduce((n, t) => n + t.rows, 0),
        'row',
      )} of ${countOf(tables.length, 'table')})`
    : '';
  io.stdout(
    `ok: ${countOf(suites.length, 'suite')}, ${countOf(cases, 'case')}${fromTables}; config ${config.file ?? '(built-in defaults)'} with ${countOf(Object.keys(config.services).length, 'service')}${warnings ? `; ${countOf(warnings, 'warning')} (above)` : ''}\n`,
  );
  return 0;
}
