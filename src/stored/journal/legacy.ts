import { basename, join } from 'node:path';
import { DriftcheckError, FileError } from '../../util/errors.js';
import type { StoredShape } from '../schemas.js';
import { NOT_WRITTEN_BY_DRIFTCHECK, shapeProblem } from '../shape.js';
import type { RunInfo } from '../report/types.js';
import type { SampleResult } from './records.js';
import type { Message } from '../../core/messages.js';
import { READ_LIMITS, type ReadLimit, readBoundedText } from '../../util/bounded-read.js';
import { entryFromLine, type LineSuite } from '../report/case-line.js';
import { readJournal } from './read.js';
import type { EndRecord, PlanRecord, RunRecord, SampleRecord } from './records.js';
import { stopForExit } from '../../core/stops.js';

/**
 * A run folder of driftcheck 0.1 (report schema 1): its journal holds sample lines only,
 * each with its messages and drift, and no run, plan or end record. What the fold needs
 * besides is read from the folder: the run and how it stopped from report.json (0.1's, one
 * entry per sample, the not-run ones included, or the one `driftcheck report` wrote from
 * it), or — for a run killed before it wrote its report — from run.json, with no end
 * (killed). The plan is every case of the report and the journal, in the order they first
 * appear, with as many samples as they list.
 */
export interface LegacyRun {
  run: RunRecord;
  plans: PlanRecord[];
  /** How the run stopped, when its report.json says so and no sample came after it. */
  end: EndRecord | null;
}

/** What a 0.1 sample line has that a sample of this version does not. */
type LegacySample = SampleRecord & { drift?: unknown; messages?: Message[] };

/** A 0.1 sample line without what a sample no longer carries (its drift and messages). */
export function legacySample(record: SampleRecord): SampleRecord {
  const { drift: _drift, messages: _messages, ...sample } = record as LegacySample;
  return sample;
}

/** Whether a journal is driftcheck 0.1's: its first record is a sample. */
export async function isLegacyJournal(file: string): Promise<boolean> {
  for await (const record of readJournal(file)) return record.type === undefined;
  return false;
}

/** report.json of driftcheck 0.1 (one entry per sample), or one `driftcheck report` wrote from it. */
interface FolderReport {
  schema_version: 1 | 2 | 3;
  run: RunInfo;
  suites?: (LineSuite & { file?: string })[];
  summary?: { total?: number; samples?: number; not_run?: number };
  cases: (Partial<SampleResult> & {
    suite: string;
    case: string;
    messages?: Message[];
    samples?: { planned: number };
  })[];
}

interface LegacyMeta {
  id?: string;
  started_at?: string;
  command?: string[];
  sim?: boolean;
  plan?: { filter?: string; shard?: { index: number; total: number }; model?: string };
}

export async function readLegacyRun(dir: string): Promise<LegacyRun> {
  const report = await readFolderFile<FolderReport>(
    join(dir, 'report.json'),
    READ_LIMITS.wholeReport,
    (r) => {
      const version = (r as { schema_version?: unknown } | null)?.schema_version;
      return typeof version === 'number' && version >= 2 ? 'report' : 'report-v1';
    },
  );
  const meta = await readFolderFile<LegacyMeta>(join(dir, 'run.json'), READ_LIMITS.runMeta, () => 'run-meta');
  const shard = report?.run.shard ?? meta?.plan?.shard ?? null;

  const plans = new Map<string, PlanRecord>();
  const counts = new Map<PlanRecord['cases'][number], { report: number; journal: number }>();
  let position = 0;
  const count = (entry: FolderReport['cases'][number], from: 'report' | 'journal', n = 1): void => {
    let plan = plans.get(entry.suite);
    if (!plan) {
      plan = {
        type: 'plan',
        suite: entry.suite,
        file: report?.suites?.find((s) => s.suite === entry.suite)?.file ?? '',
        service: entry.service ?? '',
        requested_model: entry.requested_model ?? '',
        cases: [],
      };
      plans.set(entry.suite, plan);
    }
    let c = plan.cases.find((x) => x.id === entry.case);
    if (!c) {
      // A shard was dealt every total-th case of the plan: its ordinals interleave with the other shards'.
      const ordinal = shard ? position * shard.total + shard.index - 1 : position;
      position++;
      c = { id: entry.case, ordinal, repeat: 1, messages: entry.messages ?? [] };
      plan.cases.push(c);
      counts.set(c, { report: 0, journal: 0 });
    }
    counts.get(c)![from] += n;
  };
  // Schema 1 lists every sample; 2 and 3 (a report already re-rendered) each case with its planned samples.
  const suites = new Map((report?.suites ?? []).map((s) => [s.suite, s]));
  for (const line of report?.cases ?? []) {
    const entry = report?.schema_version === 3 ? restored(line, suites.get(line.suite)) : line;
    if (entry) count(entry, 'report', entry.samples?.planned ?? 1);
  }
  let samples = 0;
  for await (const record of readJournal(join(dir, 'results.jsonl'))) {
    if (record.type !== undefined) continue;
    samples++;
    count(record as LegacySample, 'journal');
  }
  for (const plan of plans.values())
    for (const c of plan.cases) {
      const n = counts.get(c)!;
      c.repeat = Math.max(1, n.report, n.journal);
    }

  const info = report?.run;
  const run: RunRecord = {
    type: 'run',
    journal_version: 2,
    id: info?.id ?? meta?.id ?? basename(dir),
    started_at: info?.started_at ?? meta?.started_at ?? new Date(0).toISOString(),
    command: info?.command ?? meta?.command ?? [],
    driftcheck_version: info?.driftcheck_version ?? '0.1',
    sim: info?.sim ?? meta?.sim ?? false,
    candidate_model: info?.candidate_model ?? meta?.plan?.model ?? null,
    shard,
    complete: !meta?.plan?.filter && !shard,
  };
  // A report that counts fewer sent samples than the journal holds is older than it: a
  // resumed session was killed before it wrote the report again.
  const summary = report?.summary;
  const sent = summary?.samples ?? (summary?.total ?? 0) - (summary?.not_run ?? 0);
  const end: EndRecord | null =
    info && samples <= sent
      ? { type: 'end', finished_at: info.finished_at, status: info.status, stop: stopForExit(info) }
      : null;
  return { run, plans: [...plans.values()], end };
}

/** A schema-3 case line restored, or null for one that is not as driftcheck writes it (the report is only a hint here). */
function restored(line: FolderReport['cases'][number], suite: LineSuite | undefined) {
  try {
    return entryFromLine(line as Record<string, unknown>, suite, 3);
  } catch {
    return null;
  }
}

/**
 * A file of the run folder, or null when there is none or it is not JSON (a 0.1 run killed
 * before it wrote its report: the journal alone is read). One that is JSON but not of the
 * shape this reads is a FileError: it was edited, or is not driftcheck's.
 */
async function readFolderFile<T>(
  file: string,
  limit: ReadLimit,
  shape: (value: unknown) => StoredShape,
): Promise<T | null> {
  let value: unknown;
  try {
    value = JSON.parse(await readBoundedText(file, limit));
  } catch (error) {
    if (error instanceof DriftcheckError) throw error;
    return null;
  }
  const problem = shapeProblem(shape(value), value);
  if (problem !== null)
    throw new FileError(
      file,
      `${problem}; ${NOT_WRITTEN_BY_DRIFTCHECK}: move it out of the run folder and run this again (the journal alone is then read)`,
    );
  return value as T;
}
