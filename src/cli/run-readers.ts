import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadConfig } from '../config/load.js';
import type { Resources } from '../util/resources.js';
import { catalogReader, providerLists } from '../service/check-models.js';
import { baselinePath } from '../stored/baseline/store.js';
import { loadSuites, suiteCasesOf } from '../suite/load.js';
import { comparisonOf } from '../run/candidates-file.js';
import { readRunMeta, runStatusOf } from '../run/meta.js';
import { aliasCatalog } from './alias-catalog.js';
import { failedCases } from './failed.js';
import { type CliIO, warnTo } from './io.js';
import { HELD_CASES } from './plan-flags.js';
import { resumeTarget } from './resume.js';
import type { PlanReaders } from './run-plan.js';

/**
 * The plan's readers as `driftcheck run` has them: files under the working folder, the
 * configured services (or the embedded simulator, started here), stderr. What they open —
 * the simulator, a `--reference` run — is held in the command's `scope`.
 */
export function runReaders(io: CliIO, baselineDir: string, scope: Resources): PlanReaders {
  return {
    resumeTarget: (paths, reportDir) => resumeTarget(paths, io.cwd, reportDir),
    comparison: (target) => comparisonOf(target, () => readRunMeta(target)),
    runMeta: readRunMeta,
    runStatus: (runDir) => runStatusOf(join(runDir, 'report.json')),
    started: (runDir) => existsSync(join(runDir, 'run.json')),
    failedCases,
    config: (file) => loadConfig(file, io.env, io.cwd),
    async suites(paths, { allowAlias, holdAll, config, sim }) {
      const options = { allowAlias, cwd: io.cwd };
      const suites = await loadSuites(
        paths.map((p) => resolve(io.cwd, p)),
        {
          ...options,
          onWarnings: warnTo(io, 'run'),
          fetchCatalog: aliasCatalog(config, io.env, sim),
          cases: holdAll ? 'all' : { hold: HELD_CASES },
        },
      );
      // A suite loaded without its cases is read again, case by case, when the run reaches it.
      return { suites, casesOf: suiteCasesOf(options) };
    },
    hasBaseline: (suite) => existsSync(baselinePath(baselineDir, suite)),
    async services(config, sim) {
      // The simulator's code loads only for --sim runs.
      const simulated = sim ? await (await import('./sim-setup.js')).simulateServices(config, io.env) : null;
      if (simulated) scope.defer(() => simulated.simulator.close());
      const env = simulated?.env ?? io.env;
      return {
        config: simulated?.config ?? config,
        env,
        // Model lists read once for the candidates' fit and a cap's prices, before anything is sent.
        catalogs: catalogReader(env),
        providerLists: providerLists(env),
      };
    },
    async referenceRun(dir) {
      const { readComparedRun } = await import('../compare/folded-run.js');
      return scope.hold(await readComparedRun(dir), (side) => side.discard());
    },
    now: () => new Date(),
    tell: (line) => io.stderr(line),
  };
}
