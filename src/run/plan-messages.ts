import { resolve } from 'node:path';
import type { PlanRecord } from '../stored/journal/records.js';
import type { SuiteCase } from '../suite/types.js';
import type { Message } from '../core/messages.js';
import type { Diagnostic } from '../util/errors.js';
import { NO_SUCH_FILE } from '../yaml/read-text.js';

/** A suite's cases as the fold takes their messages back (cases planned as table rows). */
export async function* caseMessages(
  cases: AsyncIterable<SuiteCase> | Iterable<SuiteCase>,
): AsyncGenerator<CaseMessages> {
  for await (const c of cases) yield { id: c.id, messages: c.messages };
}

/**
 * For a journal folded on its own (`report`, `merge`, `diff`) and for a run reporting its own
 * table cases: the messages of a suite's cases planned as table rows, made again from each
 * table through the template the plan record kept, when the table's bytes are still those
 * of the plan's digest. The table is read a piece at a time, never whole; `piecesOf` gives
 * the hashes of its pieces when the caller kept them (a run, from loading its suites), and
 * then it is read once, else twice (its digest first). When a table is not the one planned
 * (or cannot be read), `onMissing` is told why, once a suite, and its cases from there on
 * are reported without their messages: everything else of them is in the journal.
 */
export function journalMessages(
  cwd: string,
  onMissing: PromptsMissing,
  piecesOf?: (plan: PlanRecord, table: number) => readonly string[] | undefined,
): (plan: PlanRecord) => AsyncIterable<CaseMessages> | null {
  return (plan) => {
    const tables = plan.tables;
    if (!tables?.length) return null;
    return (async function* () {
      // The table readers load only for a journal that has table cases.
      const [{ tableCaseMessages }, { checkedPieces, readTableAgain }] = await Promise.all([
        import('../suite/table-messages.js'),
        import('../suite/table-reread.js'),
      ]);
      for (const [t, table] of tables.entries()) {
        const template = table.case;
        if (!template) {
          onMissing(
            plan.suite,
            `its journal keeps no template for ${table.file}`,
            'a journal driftcheck writes keeps one: check that results.jsonl is the run’s own, not edited or cut short',
          );
          return;
        }
        const path = resolve(cwd, table.file);
        const changed = (also?: Diagnostic[]) => new NotPlanned(also?.[0]);
        try {
          const pieces = piecesOf?.(plan, t);
          const bytes = pieces
            ? checkedPieces(path, table.file, pieces, changed)
            : await readTableAgain(path, table.file, table.digest, changed);
          yield* tableCaseMessages({ ...table, case: template }, bytes, plan.system);
        } catch (error) {
          if (!(error instanceof NotPlanned)) throw error;
          const why = error.diagnostic
            ? `${table.file}: ${error.diagnostic.message}`
            : `${table.file} changed since the run`;
          // Only the table's bytes of then match the journal's digest: whatever is wrong with
          // it now (not UTF-8, too large), mending it otherwise cannot bring its prompts back.
          onMissing(
            plan.suite,
            why,
            error.diagnostic?.message === NO_SUCH_FILE
              ? 'running it from the folder the run was started in (a table’s path is taken from there), or restoring the table as it was at the run, shows them again'
              : 'restoring the table as it was at the run shows them again',
          );
          return;
        }
      }
    })();
  };
}

/** A table that is not the one a plan was made from (with why, when it cannot be read). */
class NotPlanned extends Error {
  constructor(readonly diagnostic: Diagnostic | undefined) {
    super('the table is not the one planned');
  }
}

/** Told, once a suite, why its table cases' prompts cannot be made again, and what to do. */
export type PromptsMissing = (suite: string, why: string, remedy: string) => void;

/**
 * What a command does when a suite's table prompts cannot be made again (journalMessages'
 * `onMissing`): writes a line of what is missing, why, and what to do about it.
 */
export function promptsMissingTo(write: (line: string) => void, command: string): PromptsMissing {
  return (suite, why, remedy) =>
    write(
      `${command}: the prompts of suite ${suite}'s table cases are not shown: ${why}; everything else of them is reported, and ${remedy}\n`,
    );
}

/** A case's messages as a suite's cases are read again (run/plan-messages.ts). */
export interface CaseMessages {
  id: string;
  messages: Message[];
}
