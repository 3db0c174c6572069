import { resolve } from 'node:path';
import type { CaseMessages } from '../fold/fold.js';
import type { PlanRecord } from '../journal/records.js';
import type { SuiteCase } from '../types.js';
import { READ_LIMITS } from '../util/bounded-read.js';
import { NO_SUCH_FILE, readUtf8File } from '../yaml/read-text.js';

/** A suite's cases as the fold takes their messages back (cases planned as table rows). */
export async function* caseMessages(
  cases: AsyncIterable<SuiteCase> | Iterable<SuiteCase>,
): AsyncGenerator<CaseMessages> {
  for await (const c of cases) yield { id: c.id, messages: c.messages };
}

/**
 * For a journal folded on its own (`report`, `merge`, `diff`): the messages of a suite's
 * cases planned as table rows, made again from each table through the template the plan
 * record kept, when the table's text still has the plan's digest. When it has not (or
 * cannot be read), `onMissing` is told why, once a suite, and those cases are reported
 * without their messages: everything else of them is in the journal.
 */
export function journalMessages(
  cwd: string,
  onMissing: PromptsMissing,
): (plan: PlanRecord) => AsyncIterable<CaseMessages> | null {
  return (plan) => {
    const tables = plan.tables;
    if (!tables?.length) return null;
    return (async function* () {
      // The table readers load only for a journal that has table cases.
      const [{ tableCaseMessages }, { TABLE_FILE, tableDigest }] = await Promise.all([
        import('../suite/table-messages.js'),
        import('../suite/sources/index.js'),
      ]);
      for (const table of tables) {
        const template = table.case;
        if (!template) {
          onMissing(
            plan.suite,
            `its journal keeps no template for ${table.file}`,
            'a journal driftcheck writes keeps one: check that results.jsonl is the run’s own, not edited or cut short',
          );
          return;
        }
        const read = await readUtf8File(resolve(cwd, table.file), table.file, READ_LIMITS.table, TABLE_FILE);
        if (read.diagnostic || tableDigest([read.bytes]) !== table.digest) {
          const why = read.diagnostic
            ? `${table.file}: ${read.diagnostic.message}`
            : `${table.file} changed since the run`;
          // Only the table's bytes of then match the journal's digest: whatever is wrong with
          // it now (not UTF-8, too large), mending it otherwise cannot bring its prompts back.
          const restore = 'restoring the table as it was at the run shows them again';
          onMissing(
            plan.suite,
            why,
            read.diagnostic?.message === NO_SUCH_FILE
              ? 'running it from the folder the run was started in (a table’s path is taken from there), or restoring the table as it was at the run, shows them again'
              : restore,
          );
          return;
        }
        yield* tableCaseMessages({ ...table, case: template }, [read.bytes], plan.system);
      }
    })();
  };
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
