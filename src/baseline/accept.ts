import { FileError, UsageError } from '../util/errors.js';
import { hardRefusals, provenanceOf, refusals } from '../fold/provenance.js';
import type { StoredReport } from '../stored/report/read.js';
import type { BaselineCase, BaselineProvenance } from '../stored/baseline/types.js';
import type { CaseEntry, ReportHead } from '../stored/report/types.js';
import { IdTable } from '../util/id-table.js';
import { Spill } from '../fold/spill.js';
import { acceptsCase, baselineCase, baselineHead } from './build.js';
import { caseOrder, caseText } from '../stored/baseline/serialize.js';
import { writeBaselineOf } from '../stored/baseline/store.js';
import { SuiteBaseline } from '../stored/baseline/suite-baseline.js';
import { baselineCaseProblem, STAND_IN_HEAD, validateBaseline } from '../stored/baseline/validate.js';

/**
 * Why a run's answers are not tonight's answers of the suites' models on the real services
 * (a candidate, simulator or shard run), or empty: `baseline accept` refuses such a run
 * unless forced, and the baselines written from it say what it was.
 */
export function acceptRefusals(head: ReportHead): string[] {
  return refusals('accept', head.run);
}

/**
 * Refuses, whatever `--force` says, a run no baseline may come from: a recheck holds another
 * run's answers under checks that may have changed since, and judges it did not call.
 */
export function assertAcceptable(head: ReportHead): void {
  const never = hardRefusals('accept', head.run);
  if (never.length === 0) return;
  const of = provenanceOf(head.run).recheck_of;
  throw new UsageError(
    `run ${head.run.id} is ${never.join(', ')}: no baseline is taken from it, not even with --force${of ? `\n  → accept run ${of} itself (driftcheck baseline accept on its folder), or run the suites again` : ''}`,
  );
}

/**
 * What accepting the run would change, one line per suite (for a refusal to show): the
 * baseline's model, and how many of its cases.
 */
export async function acceptChanges(
  baselineDir: string,
  head: ReportHead,
  selection?: ReadonlyMap<string, readonly string[]>,
): Promise<string[]> {
  const lines: string[] = [];
  for (const s of head.suites) {
    if (selection && !selection.has(s.suite)) continue;
    // Its head is all that is kept of it here: a large baseline is walked, its figures not kept.
    const previous = await SuiteBaseline.check(baselineDir, s.suite);
    const model = !previous
      ? `new baseline, model ${s.requested_model}`
      : previous.model === s.requested_model
        ? `model ${s.requested_model} (unchanged)`
        : `model ${previous.model} → ${s.requested_model}`;
    const cases = selection?.get(s.suite)?.length ?? s.cases;
    lines.push(`suite ${s.suite}: ${model}; ${cases} case(s) replaced`);
  }
  return lines;
}

/**
 * Promotes a stored run to baselines (`--update-baselines`, `baseline accept`): one file per
 * suite, written from the report's entries, one suite in memory at a time. `selection`
 * limits it to some case ids per suite; every other case of an existing baseline is kept.
 * Returns the files written.
 */
export async function acceptReport(
  baselineDir: string,
  report: StoredReport,
  selection?: ReadonlyMap<string, readonly string[]>,
  options: { forced?: boolean; onAccepted?: (c: CaseEntry) => void } = {},
): Promise<string[]> {
  assertAcceptable(report.head);
  const provenance = baselineProvenance(report.head, options.forced ?? false);
  return writeBaselinesOf(baselineDir, report, {
    over: true,
    ...(selection ? { selection } : {}),
    ...(provenance ? { provenance } : {}),
    ...(options.onAccepted ? { onAccepted: options.onAccepted } : {}),
  });
}

/**
 * A stored run's answers as baseline files in `baselineDir`, one per suite it sent, written
 * a case at a time: over the baselines there (`over`: their other cases kept), or as new
 * ones (`diff`: run A as the baselines of run B). Returns the files written.
 */
export async function writeBaselinesOf(
  baselineDir: string,
  report: StoredReport,
  options: {
    over: boolean;
    selection?: ReadonlyMap<string, readonly string[]>;
    provenance?: BaselineProvenance;
    /** Told of every case taken into a baseline, as it is taken. */
    onAccepted?: (c: CaseEntry) => void;
  },
): Promise<string[]> {
  const { selection, provenance, onAccepted } = options;
  const written: string[] = [];
  const suites = new Map(report.head.suites.map((s) => [s.suite, s]));
  let current: string | null = null;
  // Each entry becomes its baseline case as it streams by and is put aside (a Spill: on disk
  // past a few thousand), only its id kept; the previous baseline is read case by case from
  // its file as it is written over. A suite's cases are never held together: accepting a
  // 100,000-row table held them twice, its new cases and its previous baseline whole.
  let taken = new IdTable();
  let spill = new Spill<string>();
  const flush = async () => {
    const info = current === null ? undefined : suites.get(current);
    try {
      // A suite the selection leaves out took no case (below).
      if (info && taken.size > 0) {
        const previous = options.over ? await SuiteBaseline.read(baselineDir, info.suite) : null;
        const takenIds = Array.from({ length: taken.size }, (_, slot) => taken.at(slot));
        const ids = caseOrder(previous ? [...previous.figures.ids(), ...takenIds] : takenIds);
        // The cases taken, in the order the file lists them: each read back once, as it is written.
        const slots = ids.map((id) => taken.slotOf(id)).filter((slot) => slot >= 0);
        const values = spill.read(slots)[Symbol.asyncIterator]();
        const head = baselineHead({
          suite: info.suite,
          service: info.service,
          model: info.requested_model,
          run_id: report.head.run.id,
          ...(provenance ? { provenance } : {}),
        });
        written.push(
          await writeBaselineOf(baselineDir, head, ids, async (id) =>
            taken.slotOf(id) >= 0 ? (await values.next()).value! : caseText(previous!.case(id)!),
          ),
        );
      }
    } finally {
      await spill.discard();
    }
    taken = new IdTable();
    spill = new Spill();
  };
  // Checked before they are put aside, a batch at a time (one check per case cost 0.5 s
  // over 100,000): a report.json edited by hand must not write a baseline the next run refuses.
  let batch: [string, BaselineCase][] = [];
  const take = () => {
    if (batch.length && 'error' in validateBaseline({ ...STAND_IN_HEAD, cases: Object.fromEntries(batch) }))
      for (const [id, c] of batch) {
        const problem = baselineCaseProblem(id, c);
        if (problem)
          throw new FileError(
            report.file,
            `case ${current}/${id} would make a baseline that ${problem}; no baseline of suite ${current} was written\n  → re-render the report from the run's journal (driftcheck report RUN_DIR), or run the suite again`,
          );
      }
    // Put aside as the text the file will hold: through the spill's JSON as one string,
    // not as an object graph stringified, parsed back and stringified again.
    for (const [id, c] of batch) spill.put(taken.add(id), caseText(c));
    batch = [];
  };
  try {
    for await (const c of report.cases()) {
      if (c.suite !== current) {
        take();
        await flush();
        current = c.suite;
      }
      const only = selection?.get(c.suite);
      if (selection && !only) continue;
      if (!acceptsCase(c, { suite: current, ...(only ? { only } : {}) })) continue;
      onAccepted?.(c);
      batch.push([c.case, baselineCase(c)]);
      if (batch.length === CHECK_BATCH) take();
    }
    take();
    await flush();
  } finally {
    await spill.discard();
  }
  return written;
}

/** How many accepted cases are checked at once. */
const CHECK_BATCH = 512;

/** What a baseline records of its source run: nothing for a nightly run, else what it was. */
function baselineProvenance(head: ReportHead, forced: boolean): BaselineProvenance | undefined {
  if (acceptRefusals(head).length === 0) return undefined;
  const { kind, sim, shard, complete } = provenanceOf(head.run);
  return { kind, sim, shard, complete, forced };
}
