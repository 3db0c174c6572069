import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { PlanRecord, RecheckSelection, RunRecord } from '../../stored/journal/records.js';
import { readRunMeta } from '../meta.js';

/**
 * How the stored run chose its cases, so today's suites are planned the same way (its
 * filter, shard and candidate; its suite paths as it was given them): a recheck's own record
 * first (a recheck of a recheck), else the run's run.json, else what its journal says —
 * its plan's suite files, its candidate and shard (a filter it does not record).
 */
export async function storedSelection(
  dir: string,
  run: RunRecord,
  plans: readonly PlanRecord[],
): Promise<RecheckSelection> {
  if (run.recheck) return run.recheck.selection;
  if (existsSync(join(dir, 'run.json'))) {
    const meta = await readRunMeta(dir);
    return { paths: meta.paths, plan: meta.plan, allow_alias: meta.allow_alias };
  }
  return {
    paths: [...new Set(plans.map((p) => p.file).filter(Boolean))],
    plan: {
      ...(run.candidate_model ? { model: run.candidate_model } : {}),
      ...(run.candidate_provider ? { provider: run.candidate_provider } : {}),
      ...(run.skipped_suites?.length ? { skip: run.skipped_suites } : {}),
      ...(run.shard ? { shard: run.shard } : {}),
    },
    allow_alias: false,
  };
}
