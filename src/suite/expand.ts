import { createHash } from 'node:crypto';
import { canonicalJson } from '../baseline/json-compare.js';
import type { SuiteCheckOptions } from '../checks/registry.js';
import type { Diagnostic, Message, Suite, SuiteCase, SuiteTable, Validated } from '../types.js';
import type { TextRead } from '../yaml/read-text.js';
import { sortDiagnostics } from '../yaml/show.js';
import { toExpectation } from './expectations.js';
import { duplicateCaseIds } from './ids.js';
import { sampleTotalProblem } from './repeat-limits.js';
import type { Row } from './sources/types.js';
import type { RawCase, SuiteSpec } from './spec.js';
import { tableCases } from './table-cases.js';
import { type RequestContext, withTools } from './request-problems.js';

/** A table's file as read by the loader: its name in messages, and its text or why there is none. */
export interface TableText {
  file: string;
  read: TextRead;
}

/** What a case's checks are judged with (an alias allowed; a catalog for hints), and its request with. */
export type ExpandOptions = SuiteCheckOptions & { request?: RequestContext };

/**
 * Makes a suite's cases from its sources — the rows written under `cases:`, then each
 * table's rows through its template, in the order written — and checks what holds over
 * all of them: unique ids and the sample total. Pure: `tables[i]` is the text of
 * `spec.tables[i]`, read by the caller (undefined: not read). Every problem names the file and line of the
 * case or row it is about.
 */
export function expandSuite(
  spec: SuiteSpec,
  tables: readonly (TableText | undefined)[],
  options: ExpandOptions = {},
): Validated<Suite> {
  const errors: Diagnostic[] = [];
  // One system message for every case that keeps the suite's (100,000 cases share it).
  const system: Message[] = spec.system === undefined ? [] : [{ role: 'system', content: spec.system }];
  const make = (row: Row) => toCase(row.values as unknown as RawCase, spec, row, system);
  const cases = spec.inline.map(make);
  const summaries: SuiteTable[] = [];
  spec.tables.forEach((table, i) => {
    const made = tableCases(table, tables[i], {
      ...options,
      request: { suite: spec.suite.params, files: spec.toolFiles },
    });
    errors.push(...made.diagnostics);
    for (const row of made.rows) cases.push(make(row));
    if (made.summary)
      summaries.push({ ...made.summary, template: templateDigest(table.template, spec.system) });
  });
  errors.push(...duplicateCaseIds(cases));
  const total = sampleTotalProblem(spec.suite, cases);
  if (total) errors.push(total);
  // A generated case's warnings (an undocumented finish_reason in a row) are shown, not fatal.
  const warnings = errors.filter((d) => d.severity === 'warning');
  const fatal = errors.filter((d) => d.severity !== 'warning');
  if (fatal.length > 0) return { errors: sortDiagnostics(errors) };
  return {
    value: {
      ...spec.suite,
      // The journal holds the suite's system prompt once (journalPlan), not in every case.
      ...(spec.system !== undefined ? { system: spec.system } : {}),
      cases,
      ...(spec.tables.length > 0 ? { tables: summaries } : {}),
    },
    ...(warnings.length > 0 ? { warnings: sortDiagnostics(warnings) } : {}),
  };
}

/**
 * A case the schema accepted, as the run sends it: its system text (its own, else the
 * suite's) in front of its messages, `prompt` as one user message, its params over the suite's.
 */
function toCase(c: RawCase, spec: SuiteSpec, row: Row, suiteSystem: Message[]): SuiteCase {
  const system: Message[] = c.system !== undefined ? [{ role: 'system', content: c.system }] : suiteSystem;
  const asked: Message[] =
    c.prompt !== undefined ? [{ role: 'user', content: c.prompt }] : (c.messages ?? []);
  return {
    id: c.id,
    // Every field of a message is kept (the schema decides which a suite may write).
    messages: system.concat(asked.map((m): Message => ({ ...m }))),
    expect: (c.expect ?? []).map(toExpectation),
    ...(c.repeat !== undefined ? { repeat: c.repeat } : {}),
    ...(c.sim !== undefined ? { sim: { ...c.sim } } : {}),
    ...(c.drift !== undefined ? { drift: structuredClone(c.drift) } : {}),
    ...(c.params !== undefined
      ? { params: withTools({ ...spec.suite.params, ...c.params }, spec.toolFiles) }
      : {}),
    location: row.location,
  };
}

/** What a table's rows are filled into, as a digest: its template and the suite's system prompt. */
function templateDigest(template: unknown, system: string | undefined): string {
  return createHash('sha256')
    .update(canonicalJson({ template, system: system ?? null }))
    .digest('hex');
}
