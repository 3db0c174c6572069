import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config/load.js';
import { UsageError } from '../util/errors.js';
import { emptySelectionOf, planStream } from '../run/plan.js';
import { loadSuites, suiteCasesOf } from '../suite/load.js';
import { countOf } from '../util/numbers.js';
import type { SuiteTable } from '../suite/types.js';
import { type CliIO, warnTo } from './io.js';
import { projectPaths } from './project.js';
import { HELD_CASES, selectionFlags } from './plan-flags.js';

/**
 * \`driftcheck list [paths…] [--filter G] [--shard I/N] [--repeat N] [--json]\`: what a run would
 * send, after filters, without sending anything: suites, their service and model, the rows
 * of their tables, cases and samples planned. Exit 2 when it selects nothing (a run would refuse it too).
 */
export async function listCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      config: { type: 'string' },
      filter: { type: 'string' },
      shard: { type: 'string' },
      repeat: { type: 'string' },
      json: { type: 'boolean' },
      'allow-alias': { type: 'boolean' },
    },
    allowPositionals: true,
    strict: true,
  });
  const config = await loadConfig(values.config, io.env, io.cwd);
  const loadOptions = { allowAlias: Boolean(values['allow-alias']), cwd: io.cwd };
  // Every case is checked as it is read; a large selection lets them go and reads the
  // selected ones again, one at a time, keeping only their ids (a 100,000-row table held
  // whole took 168 MB; read again, 100 MB).
  const suites = await loadSuites(
    positionals.length
      ? positionals.map((p) => resolve(io.cwd, p))
      : [projectPaths(io, values.config).suites()],
    { ...loadOptions, onWarnings: warnTo(io, 'list'), cases: { hold: HELD_CASES } },
  );
  const casesOf = suiteCasesOf(loadOptions);
  const plan = selectionFlags(values, io.env);
  const bySuite = new Map<
    string,
    {
      suite: string;
      service: string;
      kind: string;
      model: string;
      tables?: SuiteTable[];
      cases: string[];
      samples: number;
    }
  >();
  let cases = 0;
  for await (const c of planStream(suites, plan, casesOf)) {
    const row = bySuite.get(c.suite.suite) ?? {
      suite: c.suite.suite,
      service: c.service,
      kind: config.services[c.service]?.kind ?? '?',
      model: c.model,
      ...(c.suite.tables ? { tables: c.suite.tables } : {}),
      cases: [],
      samples: 0,
    };
    row.cases.push(c.case.id);
    row.samples += c.repeats;
    bySuite.set(c.suite.suite, row);
    cases++;
  }
  const rows = [...bySuite.values()];
  if (values.json)
    io.stdout(
      `${JSON.stringify({ suites: rows, cases, samples: rows.reduce((n, r) => n + r.samples, 0) }, null, 2)}\n`,
    );
  else {
    for (const r of rows) {
      io.stdout(
        `${r.suite} · ${r.service} (${r.kind}) · ${r.model} · ${countOf(r.cases.length, 'case')}, ${countOf(r.samples, 'sample')}\n`,
      );
      // Rows read, whatever the filter or shard selects of them.
      for (const table of r.tables ?? []) io.stdout(`  table ${table.file}: ${countOf(table.rows, 'row')}\n`);
      for (const id of r.cases) io.stdout(`  ${r.suite}/${id}\n`);
    }
    io.stdout(
      `${countOf(cases, 'case')}, ${countOf(
        rows.reduce((n, r) => n + r.samples, 0),
        'sample',
      )} from ${countOf(rows.length, 'suite')}\n`,
    );
  }
  // A run would refuse it (exit 2) with the same message; an empty shard it would run.
  const nothing = cases === 0 ? await emptySelectionOf(suites, plan, casesOf) : null;
  if (nothing) throw new UsageError(nothing);
  return 0;
}
