import { RunFold } from '../../src/fold/fold.js';
import type { PlanRecord, RunRecord } from '../../src/stored/journal/records.js';
import type { Reporter } from '../../src/fold/reporter.js';
import type { DriftTolerance } from '../../src/suite/types.js';
import type { Baseline } from '../../src/stored/baseline/types.js';
import type { CaseEntry, Report } from '../../src/stored/report/types.js';
import type { SampleResult } from '../../src/stored/journal/records.js';
import type { StopReason } from '../../src/core/stops.js';

export interface FoldFixture {
  /** Baseline per suite name. */
  baselines?: Record<string, Baseline>;
  /** The plan covered whole suites (default true). */
  complete?: boolean;
  stop?: StopReason | null;
  /** Cases planned but absent from `samples` (not run), per suite. */
  unsent?: Record<string, string[]>;
  candidate?: string | null;
  reporters?: Reporter[];
  /** Planned repeats per `suite/case` when more were planned than sent. */
  planned?: Record<string, number | 'auto'>;
  /** `drift:` tolerances: per suite name, and per `suite/case`. */
  drift?: { suites?: Record<string, DriftTolerance>; cases?: Record<string, DriftTolerance> };
  /** Fold as a run in progress does: each case closed as soon as its samples are in. */
  live?: boolean;
  /** Complete entries a suite holds before the rest wait on disk (RunFold's spillHold). */
  spillHold?: number;
}

/**
 * Folds samples the way a run does (plan records from the samples' suites and cases in the
 * order they first appear, then every sample, then the end) and returns the whole report:
 * the real fold, so a test of a reporter or the verdict reads what a run would produce.
 */
export async function foldSamples(
  samples: readonly SampleResult[],
  fixture: FoldFixture = {},
): Promise<Report> {
  const plans = new Map<string, PlanRecord>();
  let ordinal = 0;
  const counts = new Map<string, number>();
  for (const s of samples) counts.set(`${s.suite}/${s.case}`, (counts.get(`${s.suite}/${s.case}`) ?? 0) + 1);
  const plan = (suite: string, caseId: string, sample?: SampleResult) => {
    let record = plans.get(suite);
    if (!record) {
      record = {
        type: 'plan',
        suite,
        file: `suites/${suite}.yaml`,
        service: sample?.service ?? 'router',
        requested_model: sample?.requested_model ?? 'openai/gpt-4o-mini',
        ...(fixture.drift?.suites?.[suite] ? { drift: fixture.drift.suites[suite] } : {}),
        cases: [],
      };
      plans.set(suite, record);
    }
    if (record.cases.some((c) => c.id === caseId)) return;
    const id = `${suite}/${caseId}`;
    record.cases.push({
      id: caseId,
      ordinal: ordinal++,
      repeat:
        fixture.planned?.[id] ?? (sample?.sampling === 'auto' ? 'auto' : Math.max(1, counts.get(id) ?? 1)),
      messages: [{ role: 'user', content: `prompt of ${caseId}` }],
      ...(fixture.drift?.cases?.[id] ? { drift: fixture.drift.cases[id] } : {}),
    });
  };
  for (const s of samples) plan(s.suite, s.case, s);
  for (const [suite, ids] of Object.entries(fixture.unsent ?? {})) for (const id of ids) plan(suite, id);
  const cases: CaseEntry[] = [];
  const collect: Reporter = {
    onSuite: ({ cases: folded }) => {
      cases.push(...folded);
    },
  };
  const fold = new RunFold({
    baseline: async (suite) => ({
      baseline: fixture.baselines?.[suite] ?? null,
      path: fixture.baselines?.[suite] ? `baselines/${suite}.json` : null,
    }),
    reporters: [collect, ...(fixture.reporters ?? [])],
    now: () => new Date('2026-11-22T05:00:09.000Z'),
    ...(fixture.live ? { live: true } : {}),
    ...(fixture.spillHold !== undefined ? { spillHold: fixture.spillHold } : {}),
  });
  const run: RunRecord = {
    type: 'run',
    journal_version: 2,
    id: '20261122T050000000Z-abcd',
    started_at: '2026-11-22T05:00:00.000Z',
    command: ['driftcheck', 'run'],
    driftcheck_version: 'test',
    sim: false,
    candidate_model: fixture.candidate ?? null,
    shard: null,
    complete: fixture.complete ?? true,
  };
  fold.add(run);
  for (const record of plans.values()) fold.add(record);
  for (const s of samples) fold.add(s);
  fold.add({
    type: 'end',
    finished_at: '2026-11-22T05:00:09.000Z',
    status: 'completed',
    stop: fixture.stop ?? null,
  });
  const { head } = await fold.finish();
  return { ...head, cases };
}
