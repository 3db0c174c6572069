import { canonicalJson } from '../util/json-compare.js';
import { sha256 } from '../util/sha256.js';
import type { SuiteCheckOptions } from '../checks/registry.js';
import type { Suite, SuiteCase } from './types.js';
import type { JudgeSpec } from '../checks/judge.js';
import type { Message } from '../core/messages.js';
import type { Diagnostic, Validated } from '../util/errors.js';
import { sortDiagnostics } from '../yaml/show.js';
import { toExpectation } from './expectations.js';
import { CaseIds } from './ids.js';
import { SampleCount } from './repeat-limits.js';
import type { Row, TableBytes } from './sources/types.js';
import { type RawCase, type SuiteSpec, toolResultsOf } from './spec.js';
import { type TableFound, tableCases } from './table-cases.js';
import { caseParams, type RequestContext } from './request-problems.js';

/** A table's file as read by the loader: its name in messages, and its bytes (UTF-8) or why there are none. */
export interface TableText {
  file: string;
  /**
   * Its bytes, a piece at a time (TableBytes), or why they could not be read. Read twice,
   * for its digest and for its rows, unless `digest` is given: then once.
   */
  read: { bytes: TableBytes; diagnostic?: undefined } | { bytes?: undefined; diagnostic: Diagnostic };
  /** Its digest (tableDigest), when the caller has already made it. */
  digest?: string;
}

/** What a case's checks are judged with (an alias allowed; a catalog for hints), and its request with. */
export type ExpandOptions = SuiteCheckOptions & { request?: RequestContext };

/**
 * One source of a suite's cases: the cases written under `cases:`, or its table at
 * `spec.tables[table]` with the text the caller read for it (undefined: not read).
 */
export type CaseSource = { inline: true } | { table: number; input: TableText | undefined };

/** How many cases a suite makes, and the samples they plan (null when a case is `repeat: auto`). */
export interface CaseCounts {
  cases: number;
  samples: number | null;
}

/**
 * Makes a suite's cases from its sources — the rows written under `cases:`, then each
 * table's rows through its template, in the order written — and checks what holds over
 * all of them: unique ids and the sample total. Pure: `tables[i]` is the text of
 * `spec.tables[i]`, read by the caller (undefined: not read). Every problem names the file
 * and line of the case or row it is about.
 */
export function expandSuite(
  spec: SuiteSpec,
  tables: readonly (TableText | undefined)[],
  options: ExpandOptions = {},
): Validated<Suite> {
  const expansion = new SuiteExpansion(spec, options, 'all');
  expansion.add({ inline: true });
  spec.tables.forEach((_, i) => expansion.add({ table: i, input: tables[i] }));
  return expansion.finish();
}

/**
 * The cases of one of a suite's sources, made one at a time — the one expansion from spec
 * and rows to cases, which validation walks (SuiteExpansion) and a run reads again
 * (readSuiteCases). Pure. A table's problems go to `found.problems` as its rows are read,
 * and its summary to `found.tables` once its last row is.
 */
export function* sourceCases(
  spec: SuiteSpec,
  source: CaseSource,
  options: ExpandOptions,
  found: TableFound,
): Generator<SuiteCase> {
  // One system message for every case that keeps the suite's (100,000 cases share it).
  const system: Message[] = spec.system === undefined ? [] : [{ role: 'system', content: spec.system }];
  const make = (row: Row) => toCase(row.values as unknown as RawCase, spec, row, system);
  if ('inline' in source) {
    for (const row of spec.inline) yield make(row);
    return;
  }
  const request = {
    suite: spec.suite.params,
    files: spec.toolFiles,
    resultFiles: spec.resultFiles,
    allow: spec.allow,
  };
  const rows = tableCases(spec.tables[source.table]!, source.input, { ...options, request }, found);
  for (const row of rows) yield make(row);
}

/**
 * A suite's cases walked source by source, each checked as it passes — its row's own
 * problems, a duplicate id (naming both), the sample total — keeping of all of them only
 * the ids seen, the counts, the judges the cases call and the tables' summaries; the cases
 * themselves only with `keep: 'all'`.
 */
export class SuiteExpansion {
  private readonly found: TableFound = { problems: [], tables: [] };
  private readonly ids = new CaseIds();
  private readonly samples: SampleCount;
  private readonly cases: SuiteCase[] = [];
  private readonly judges = new Map<string, Pick<JudgeSpec, 'service' | 'model'>>();
  private count = 0;

  constructor(
    private readonly spec: SuiteSpec,
    private readonly options: ExpandOptions,
    private readonly keep: 'all' | 'none',
  ) {
    this.samples = new SampleCount(spec.suite);
  }

  /** Walks every case of one source (sources in the order written: inline first, then each table). */
  add(source: CaseSource): void {
    for (const c of sourceCases(this.spec, source, this.options, this.found)) {
      this.count++;
      const duplicate = this.ids.add(c.id, c.location);
      if (duplicate) this.found.problems.push(duplicate);
      this.samples.add(c);
      if (this.keep === 'all') this.cases.push(c);
      // Kept either way: a suite held at first lets its cases go once a run's hold is passed.
      for (const e of c.expect)
        if (e.type === 'judge')
          this.judges.set(`${e.value.service ?? ''}\n${e.value.model}`, {
            ...(e.value.service !== undefined ? { service: e.value.service } : {}),
            model: e.value.model,
          });
    }
  }

  /** The judges the cases call, each once (a suite without its cases names them: Suite.judges). */
  judgesCalled(): NonNullable<Suite['judges']> {
    return [...this.judges.values()];
  }

  get counts(): CaseCounts {
    return { cases: this.count, samples: this.samples.samples };
  }

  /**
   * The suite, or every problem found: with `keep: 'none'` its cases are `[]` and the
   * judges they call are in `judges`.
   */
  finish(): Validated<Suite> {
    const { problems, tables } = this.found;
    const total = this.samples.problem();
    const errors = total ? [...problems, total] : problems;
    // A generated case's warnings (an undocumented finish_reason in a row) are shown, not fatal.
    const warnings = errors.filter((d) => d.severity === 'warning');
    if (warnings.length < errors.length) return { errors: sortDiagnostics(errors) };
    const { spec } = this;
    return {
      value: {
        ...spec.suite,
        // The journal holds the suite's system prompt once (journalPlan), not in every case.
        ...(spec.system !== undefined ? { system: spec.system } : {}),
        cases: this.cases,
        ...(spec.tables.length > 0
          ? {
              tables: tables.map((t, i) => ({
                ...t,
                template: templateDigest(spec.tables[i]!.template, spec.system),
                case: spec.tables[i]!.template,
              })),
            }
          : {}),
        ...(this.keep === 'none' ? { judges: this.judgesCalled() } : {}),
      },
      ...(warnings.length > 0 ? { warnings: sortDiagnostics(warnings) } : {}),
    };
  }
}

/**
 * A case the schema accepted, as the run sends it: its system text (its own, else the
 * suite's) in front of its messages, `prompt` as one user message, its params over the suite's.
 */
function toCase(c: RawCase, spec: SuiteSpec, row: Row, suiteSystem: Message[]): SuiteCase {
  return {
    id: c.id,
    messages: messagesOf(c, suiteSystem),
    expect: (c.expect ?? []).map(toExpectation),
    ...(c.repeat !== undefined ? { repeat: c.repeat } : {}),
    ...(c.sim !== undefined ? { sim: { ...c.sim } } : {}),
    ...(c.drift !== undefined ? { drift: structuredClone(c.drift) } : {}),
    ...(c.params !== undefined ? { params: caseParams(spec.suite.params, c.params, spec.toolFiles) } : {}),
    ...toolLoopOf(c, spec),
    ...(c.turns !== undefined
      ? { turns: c.turns.map((t) => ({ user: t.user, expect: (t.expect ?? []).map(toExpectation) })) }
      : {}),
    ...(c.stop_on_failure !== undefined ? { stop_on_failure: c.stop_on_failure } : {}),
    location: row.location,
  };
}

/**
 * A case's messages as sent: its system text (its own, else the suite's) in front, then
 * `prompt` as one user message, or its messages. Every field of a message is kept (the
 * schema decides which a suite may write).
 */
export function messagesOf(
  c: Pick<RawCase, 'system' | 'prompt' | 'messages'>,
  suiteSystem: Message[],
): Message[] {
  const system: Message[] = c.system !== undefined ? [{ role: 'system', content: c.system }] : suiteSystem;
  const asked: Message[] =
    c.prompt !== undefined ? [{ role: 'user', content: c.prompt }] : (c.messages ?? []);
  return system.concat(asked.map((m): Message => ({ ...m })));
}

/** What a table's rows are filled into, as a digest: its template and the suite's system prompt. */
function templateDigest(template: unknown, system: string | undefined): string {
  return sha256(canonicalJson({ template, system: system ?? null }));
}

/** A case's tool loop: its `tool_results` over the suite's, tool by tool, and its `max_steps`. */
function toolLoopOf(c: RawCase, spec: SuiteSpec): Pick<SuiteCase, 'tool_results' | 'max_steps'> {
  const { suite } = spec;
  const own = c.tool_results !== undefined ? toolResultsOf(c.tool_results, spec.resultFiles) : undefined;
  const results = own || suite.tool_results ? { ...suite.tool_results, ...own } : undefined;
  if (!results) return {};
  const steps = c.max_steps ?? suite.max_steps;
  return { tool_results: results, ...(steps !== undefined ? { max_steps: steps } : {}) };
}
