import { resolve } from 'node:path';
import type { CaseMessages } from '../fold/fold.js';
import type { PlanRecord } from '../journal/records.js';
import { InputError } from '../errors.js';
import type { Suite, SuiteCase, SuiteTable } from '../types.js';

/** A suite's cases as the fold takes their messages back (cases planned as table rows). */
export async function* caseMessages(
  cases: AsyncIterable<SuiteCase> | Iterable<SuiteCase>,
): AsyncGenerator<CaseMessages> {
  for await (const c of cases) yield { id: c.id, messages: c.messages };
}

/**
 * For a journal folded on its own (`report`, `merge`, `diff`): the messages of a suite's
 * cases planned as table rows, made again from the suite file and its tables, when they
 * are still what the run planned with (each table's digest and template the same). When
 * they are not (or cannot be read), `onMissing` is told why, once a suite, and those cases
 * are reported without their messages: everything else of them is in the journal.
 */
export function journalMessages(
  cwd: string,
  onMissing: (suite: string, why: string) => void,
): (plan: PlanRecord) => AsyncIterable<CaseMessages> | null {
  return (plan) => {
    const tables = plan.tables;
    if (!tables?.length || !plan.file) return null;
    return (async function* () {
      // The suite loader is read only for a journal that has table cases.
      const { loadSuites, readSuiteCases } = await import('../suite/load.js');
      const options = { cwd, allowAlias: true };
      let loaded: Suite[];
      try {
        loaded = await loadSuites([resolve(cwd, plan.file)], { ...options, cases: 'none' });
      } catch (error) {
        // A table that no longer reads as one changed, like a table with other rows.
        const files = error instanceof InputError ? error.diagnostics.map((d) => d.file) : [];
        const table = tables.find((t) => files.includes(t.file));
        onMissing(plan.suite, table ? `${table.file} changed since the run` : `${plan.file} cannot be read`);
        return;
      }
      const suite = loaded.find((s) => s.suite === plan.suite);
      const changed = tables.find((then, i) => !sameTable(then, suite?.tables?.[i]));
      if (!suite || changed || suite.tables?.length !== tables.length) {
        onMissing(plan.suite, `${changed?.file ?? plan.file} changed since the run`);
        return;
      }
      try {
        yield* caseMessages(readSuiteCases(suite, options));
      } catch (error) {
        if (!(error instanceof InputError)) throw error;
        onMissing(plan.suite, `${error.diagnostics[0]?.file ?? plan.file} changed while it was read`);
      }
    })();
  };
}

function sameTable(then: SuiteTable, now: SuiteTable | undefined): boolean {
  return (
    now !== undefined &&
    now.digest === then.digest &&
    // A journal of version 4 kept no template digest.
    (then.template === undefined || now.template === then.template)
  );
}
