import type { StoredReport } from '../stored/report/read.js';
import type { BaselineCase } from '../stored/baseline/types.js';
import type { CaseEntry } from '../stored/report/types.js';
import { acceptsCase, baselineCase } from './build.js';
import { canonicalJson } from '../util/json-compare.js';
import { baselinePath } from '../stored/baseline/store.js';
import { SuiteBaseline } from '../stored/baseline/suite-baseline.js';

/** Ids listed per kind and suite before the rest are counted. */
export const PREVIEW_LISTED = 20;

/** A baseline case that accepting would change: its id, and what of it. */
interface ChangedCase {
  id: string;
  /** `pass → fail`, when the status changes. */
  status: string | null;
  /** The other fields of the entry that differ (content, usage, checks, provider, …). */
  fields: string[];
}

/** What accepting a run would do to one suite's baseline. */
export interface SuitePreview {
  suite: string;
  file: string;
  /** The baseline's model now (null: no baseline yet), and the run's. */
  model: { from: string | null; to: string };
  added: { count: number; ids: string[] };
  changed: { count: number; cases: ChangedCase[] };
  /** Cases whose entry stays as it is but for its latency sketch. */
  same: number;
  /** Cases of the baseline the run does not have: accepting keeps them as they are. */
  kept: number;
}

/**
 * What `baseline accept` would change, suite by suite, writing nothing: the cases it would
 * add, those whose entry would change (and in what), those it would leave the same, and how
 * many of the baseline's it keeps. A case's latency sketch is not a change: it moves every
 * run. Reads the report a case at a time and each previous baseline as accept does.
 */
export async function previewAccept(
  baselineDir: string,
  report: StoredReport,
  selection?: ReadonlyMap<string, readonly string[]>,
  /** Told of every case the accept would take (the CLI lists the failing ones). */
  onAccepted?: (c: CaseEntry) => void,
): Promise<SuitePreview[]> {
  const out: SuitePreview[] = [];
  const suites = new Map(report.head.suites.map((s) => [s.suite, s]));
  type State = { preview: SuitePreview; previous: SuiteBaseline | null; taken: number };
  let current = null as State | null;
  const finish = () => {
    if (!current) return;
    const { preview, previous, taken } = current;
    const both = preview.changed.count + preview.same;
    let held = 0;
    if (previous) for (const _ of previous.figures.ids()) held++;
    preview.kept = held - both;
    if (taken > 0) out.push(preview);
    current = null;
  };
  for await (const c of report.cases()) {
    if (current?.preview.suite !== c.suite) {
      finish();
      const info = suites.get(c.suite);
      const previous = await SuiteBaseline.read(baselineDir, c.suite);
      current = {
        previous,
        taken: 0,
        preview: {
          suite: c.suite,
          file: baselinePath(baselineDir, c.suite),
          model: { from: previous?.head.model ?? null, to: info?.requested_model ?? c.requested_model },
          added: { count: 0, ids: [] },
          changed: { count: 0, cases: [] },
          same: 0,
          kept: 0,
        },
      };
    }
    const only = selection?.get(c.suite);
    if (selection && !only) continue;
    if (!acceptsCase(c, { suite: c.suite, ...(only ? { only } : {}) })) continue;
    current.taken++;
    onAccepted?.(c);
    const { preview, previous } = current;
    const before = previous?.case(c.case) ?? null;
    if (!before) {
      if (preview.added.count++ < PREVIEW_LISTED) preview.added.ids.push(c.case);
      continue;
    }
    const change = changeOf(c.case, before, baselineCase(c));
    if (!change) preview.same++;
    else if (preview.changed.count++ < PREVIEW_LISTED) preview.changed.cases.push(change);
  }
  finish();
  return out;
}

/** How a baseline case's entry would change (values compared as JSON, key order aside), or null when only its latency would. */
function changeOf(id: string, before: BaselineCase, after: BaselineCase): ChangedCase | null {
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (key) =>
      key !== 'latency_ms' &&
      key !== 'status' &&
      canonicalJson(before[key as keyof BaselineCase] ?? null) !==
        canonicalJson(after[key as keyof BaselineCase] ?? null),
  );
  const status = before.status === after.status ? null : `${before.status} → ${after.status}`;
  return status || fields.length ? { id, status, fields } : null;
}
