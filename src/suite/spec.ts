import type { DriftTolerance, SimDirective, Suite, ToolResults } from './types.js';
import type { Message, RequestParams } from '../core/messages.js';
import type { SourceLocation } from '../util/errors.js';
import type { YamlMapping } from '../yaml/parse-mapping.js';
import { formatOf, type TableFormatName } from './sources/index.js';
import { inlineRows } from './sources/inline.js';
import type { Row } from './sources/types.js';
import { type Placeholder, placeholdersOf } from './template.js';
import { type SuiteAllowance, type ToolsFile, withTools } from './request-problems.js';
import { isRecord } from '../util/is-record.js';
import { escapePointer } from '../yaml/locate.js';

/** A case as written under `cases:` (or made from a table row), once it passed the case schema. */
export interface RawCase {
  id: string;
  prompt?: string;
  messages?: Message[];
  system?: string;
  params?: RequestParams;
  expect?: Record<string, unknown>[];
  repeat?: number | 'auto';
  sim?: SimDirective;
  drift?: DriftTolerance;
  tool_results?: RawToolResults;
  max_steps?: number;
  turns?: { user: string; expect?: Record<string, unknown>[] }[];
  stop_on_failure?: boolean;
}

/** `tool_results:` as written: per tool, a text, one rule, or a list of rules. */
export type RawToolResults = Record<string, string | RawToolRule | RawToolRule[]>;
/** A rule as written: its result given (`result`) or read from a file (`file`, exactly one of them). */
type RawToolRule = { when?: Record<string, unknown> } & ({ result: unknown } | { file: string });

interface RawSuite {
  suite: string;
  service: string;
  model: string;
  params?: RequestParams;
  allow?: SuiteAllowance[];
  system?: string;
  repeat?: number | 'auto';
  drift?: DriftTolerance;
  tool_results?: RawToolResults;
  max_steps?: number;
  cases?: RawCase[];
  tables?: { path: string; format?: string; case: Record<string, unknown> }[];
}

/** One entry of `tables:`: a file, its format, and the case template its rows fill in. */
export interface TableSpec {
  /** The path as written, relative to the suite file. */
  path: string;
  format: TableFormatName;
  template: Record<string, unknown>;
  /** Where `path:` is written in the suite. */
  location: SourceLocation;
  /** Each placeholder of the template, with where its text is written in the suite. */
  placeholders: (Placeholder & { location: SourceLocation })[];
}

/**
 * A suite that passed validation, before its cases are made: everything but the cases,
 * and its case sources — the inline rows of `cases:` and the tables to read. Holds no
 * YAML document: expanding it (expand.ts) needs only these positions.
 */
export interface SuiteSpec {
  suite: Omit<Suite, 'cases' | 'tables'>;
  system?: string;
  inline: Row[];
  tables: TableSpec[];
  /** The tools files the suite names (in its params, cases and table templates), as written, with where. */
  toolPaths: ToolPath[];
  /** Those files, read: a case's `tools: <file>` becomes the tools it holds. */
  toolFiles: ReadonlyMap<string, ToolsFile>;
  /** The tool result files the suite names (`tool_results:` rules with `file:`), as written, with where. */
  resultPaths: ToolPath[];
  /** Those files' texts, by the path as written: a rule's `file:` becomes the result it holds. */
  resultFiles: ReadonlyMap<string, string>;
  /** What the suite allows its requests although it may break the baseline (`allow:`). */
  allow: readonly SuiteAllowance[];
}

/** A tools file a suite names, as written, and the first place it is named (`params.tools`). */
export interface ToolPath {
  path: string;
  named: string;
  location: SourceLocation;
}

/**
 * The literal tools file paths a suite names: in its params, its cases' and its table
 * templates', each with the first place it is named. Reads defensively: a suite with
 * problems is asked too, so that its tools files' problems are reported with its own.
 */
export function toolPathsOf(
  data: Record<string, unknown>,
  where: (pointer: string) => SourceLocation,
): ToolPath[] {
  const out = new Map<string, ToolPath>();
  eachPart(data, 'params', (params, pointer, named) => {
    const tools = isRecord(params) ? params.tools : undefined;
    if (typeof tools !== 'string' || tools === '' || tools.includes('{{') || out.has(tools)) return;
    out.set(tools, { path: tools, named: `${named}.tools`, location: where(`${pointer}/tools`) });
  });
  return [...out.values()];
}

/**
 * The tool result files a suite names (`file:` in a rule of its `tool_results:`, its
 * cases' and its table templates'), each with the first place it is named. Reads
 * defensively, as toolPathsOf does.
 */
export function resultPathsOf(
  data: Record<string, unknown>,
  where: (pointer: string) => SourceLocation,
): ToolPath[] {
  const out = new Map<string, ToolPath>();
  eachPart(data, 'tool_results', (results, pointer, named) => {
    if (!isRecord(results)) return;
    for (const [tool, given] of Object.entries(results)) {
      const rules = Array.isArray(given) ? given : [given];
      rules.forEach((rule: unknown, i) => {
        const file = isRecord(rule) ? rule.file : undefined;
        if (typeof file !== 'string' || file === '' || file.includes('{{') || out.has(file)) return;
        const at = Array.isArray(given) ? `/${i}` : '';
        const name = `${named}.${tool}${Array.isArray(given) ? `[${i}]` : ''}.file`;
        out.set(file, {
          path: file,
          named: name,
          location: where(`${pointer}/${escapePointer(tool)}${at}/file`),
        });
      });
    }
  });
  return [...out.values()];
}

/** Calls `visit` with a suite's `key` and each case's and table template's, with their pointers and names. */
function eachPart(
  data: Record<string, unknown>,
  key: string,
  visit: (value: unknown, pointer: string, named: string) => void,
): void {
  visit(data[key], `/${key}`, key);
  if (Array.isArray(data.cases))
    data.cases.forEach((c: unknown, i) =>
      visit(isRecord(c) ? c[key] : undefined, `/cases/${i}/${key}`, `cases[${i}].${key}`),
    );
  if (Array.isArray(data.tables))
    data.tables.forEach((t: unknown, i) =>
      visit(
        isRecord(t) && isRecord(t.case) ? t.case[key] : undefined,
        `/tables/${i}/case/${key}`,
        `tables[${i}].case.${key}`,
      ),
    );
}

/** A position found the first time one of its fields is read, once. */
function lazyLocation(find: () => SourceLocation): SourceLocation {
  let at: SourceLocation | undefined;
  const found = () => (at ??= find());
  return {
    get file() {
      return found().file;
    },
    get line() {
      return found().line;
    },
    get column() {
      return found().column;
    },
  };
}

/**
 * Maps a suite that passed validation onto its spec, each part with where it is written.
 * Positions beyond `suite`, `service` and the case items (a table's) are asked of the
 * YAML reader only when the suite has tables.
 */
export function buildSpec(
  yaml: YamlMapping,
  toolFiles: ReadonlyMap<string, ToolsFile> = new Map(),
  resultFiles: ReadonlyMap<string, string> = new Map(),
): SuiteSpec {
  const raw = yaml.data as unknown as RawSuite;
  const where = (pointer: string): SourceLocation => {
    const at = yaml.locate(pointer);
    return { file: yaml.file, line: at.line, column: at.column };
  };
  // Located when read, which only a diagnostic does: asking now would send a table suite to
  // the full YAML path (the `yaml` package loaded and the file read twice: ~25 ms of a validate).
  const tables = (raw.tables ?? []).map((t, i): TableSpec => ({
    path: t.path,
    // The suite's semantic checks refused a table whose format is unknown.
    format: formatOf(t.path, t.format)!,
    template: t.case,
    location: lazyLocation(() => where(`/tables/${i}/path`)),
    placeholders: placeholdersOf(t.case).map((p) => ({
      ...p,
      location: lazyLocation(() => where(`/tables/${i}/case${p.pointer}`)),
    })),
  }));
  return {
    suite: {
      suite: raw.suite,
      file: yaml.file,
      service: raw.service,
      model: raw.model,
      params: withTools({ ...raw.params }, toolFiles),
      ...(raw.repeat !== undefined ? { repeat: raw.repeat } : {}),
      ...(raw.drift !== undefined ? { drift: structuredClone(raw.drift) } : {}),
      ...(raw.tool_results !== undefined
        ? { tool_results: toolResultsOf(raw.tool_results, resultFiles) }
        : {}),
      ...(raw.max_steps !== undefined ? { max_steps: raw.max_steps } : {}),
      location: where('/suite'),
      ...(raw.service !== undefined ? { service_location: where('/service') } : {}),
      model_location: where('/model'),
    },
    ...(raw.system !== undefined ? { system: raw.system } : {}),
    inline: inlineRows(raw.cases ?? [], where),
    tables,
    toolPaths: toolPathsOf(yaml.data, where),
    toolFiles,
    resultPaths: resultPathsOf(yaml.data, where),
    resultFiles,
    allow: raw.allow ?? [],
  };
}

/**
 * `tool_results:` as the run uses it: each tool's rules in order, a text as written, any
 * other result as its JSON (what a tool message's content is), a `file:` as the text it
 * holds. A file not read yet gives '' (the loader reads the files a suite names, then
 * parses it again with them, as it does tools files).
 */
export function toolResultsOf(raw: RawToolResults, files: ReadonlyMap<string, string>): ToolResults {
  const out: ToolResults = {};
  for (const [tool, given] of Object.entries(raw)) {
    const rules = typeof given === 'string' ? [{ result: given }] : Array.isArray(given) ? given : [given];
    out[tool] = rules.map((r) => ({
      ...(r.when !== undefined ? { when: structuredClone(r.when) } : {}),
      result:
        'file' in r
          ? (files.get(r.file) ?? '')
          : typeof r.result === 'string'
            ? r.result
            : JSON.stringify(r.result),
    }));
  }
  return out;
}
