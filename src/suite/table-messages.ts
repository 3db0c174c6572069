import type { Message } from '../core/messages.js';
import { messagesOf } from './expand.js';
import { MAX_SUITE_SAMPLES } from './repeat-limits.js';
import { formatOf, TABLE_FORMATS } from './sources/index.js';
import type { TableBytes } from './sources/types.js';
import type { RawCase } from './spec.js';
import { compileTemplate } from './template.js';

/** A table as a run's plan record names it (SuiteTable): enough to make its cases' prompts again. */
export interface PlannedTable {
  file: string;
  format: string;
  case: Record<string, unknown>;
}

/**
 * The id and messages of each case a table's text makes through the template its plan
 * record kept, in row order: the prompts a report shows for cases planned as rows (journal
 * 5), made without the suite file. Pure; the caller holds the table's bytes to the plan's digest.
 * Rows that make no case (they were refused when the run checked them) are passed over.
 */
export function* tableCaseMessages(
  table: PlannedTable,
  bytes: TableBytes,
  system: string | undefined,
): Generator<{ id: string; messages: Message[] }> {
  const format = formatOf(table.file, table.format);
  if (!format) return;
  const suiteSystem: Message[] = system === undefined ? [] : [{ role: 'system', content: system }];
  const template = compileTemplate(table.case);
  for (const row of TABLE_FORMATS[format].rows(bytes, table.file, MAX_SUITE_SAMPLES, [])) {
    const filled = template.fill(row.values);
    const made = filled.value as Partial<RawCase> | undefined;
    if (typeof made?.id !== 'string') continue;
    yield { id: made.id, messages: messagesOf(made, suiteSystem) };
  }
}
