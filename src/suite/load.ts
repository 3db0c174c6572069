import { dirname, resolve } from 'node:path';
import { InputError } from '../errors.js';
import type { ModelCatalog } from '../checks/registry.js';
import type { Diagnostic, Suite, Validated } from '../types.js';
import { displayPath } from '../yaml/display-path.js';
import { readTextFile } from '../yaml/read-text.js';
import { READ_LIMITS } from '../util/bounded-read.js';
import { show, sortDiagnostics } from '../yaml/show.js';
import { expandSuitePaths, type SuiteFile } from './expand-paths.js';
import { expandSuite, type TableText } from './expand.js';
import { type ParseSuiteOptions, parseSuiteSpec, withWarnings } from './parse.js';
import { TABLE_EXTENSIONS } from './sources/index.js';
import type { ToolsFile } from './request-problems.js';
import type { SuiteSpec } from './spec.js';
import { readToolsFile } from './tools-file.js';

export interface LoadSuitesOptions extends ParseSuiteOptions {
  /** Base for relative paths and for the file names shown in messages (default process.cwd()). */
  cwd?: string;
  /** Called once every suite file is read, before any is parsed, with their total length in characters. */
  onRead?: (chars: number) => void;
  /** Called with the warnings of the suites that load (sorted); errors are thrown instead. */
  onWarnings?: (warnings: Diagnostic[]) => void;
  /**
   * Where a model catalog can be had (the router's /models, the simulator's), asked only
   * when a suite names an alias that will be refused, for a hint naming its family.
   */
  fetchCatalog?: () => Promise<ModelCatalog | undefined>;
  /**
   * What is kept of each suite once it has loaded, before the next is read (default: all of
   * it). `validate` keeps its counts and no cases, so that checking 100 files of 1,000 cases
   * holds one file's cases at a time.
   */
  keep?: (suite: Suite) => Suite;
}

/** A `~author/…` id anywhere in a file: cheap, and a false positive only costs a catalog read. */
const ALIAS_IN_TEXT = /~[^\s/]+\//;

/** What a table file should be, named where a folder was given. */
const TABLE_FILE = `a table file (${TABLE_EXTENSIONS})`;

/**
 * Reads and validates suites from files and folders (no paths: `suites/`), and the tables
 * they take cases from. Collects every problem in every file first, then throws one
 * InputError carrying them all, so a user fixes everything in one pass.
 */
export async function loadSuites(paths: string[], options: LoadSuitesOptions = {}): Promise<Suite[]> {
  const cwd = options.cwd ?? process.cwd();
  const { files, diagnostics } = await expandSuitePaths(paths.length > 0 ? paths : ['suites'], cwd);
  const suites: Suite[] = [];
  const reads = await Promise.all(files.map((f) => readTextFile(f.path, f.shown)));
  options.onRead?.(reads.reduce((n, r) => n + (r.text?.length ?? 0), 0));
  const catalog =
    options.catalog ??
    (options.fetchCatalog &&
    !options.allowAlias &&
    reads.some((r) => r.text !== undefined && ALIAS_IN_TEXT.test(r.text))
      ? await options.fetchCatalog()
      : undefined);
  const warnings: Diagnostic[] = [];
  for (const [i, f] of files.entries()) {
    const read = reads[i];
    if (!read) continue;
    if (read.diagnostic) {
      diagnostics.push(read.diagnostic);
      continue;
    }
    const spec = await specWithTools(read.text, f, cwd, { ...options, ...(catalog ? { catalog } : {}) });
    if (spec.errors) {
      diagnostics.push(...spec.errors);
      continue;
    }
    const expanded = withWarnings(
      expandSuite(spec.value, await readTables(spec.value, f, cwd), {
        ...options,
        ...(catalog ? { catalog } : {}),
      }),
      spec.warnings,
    );
    if (expanded.errors) diagnostics.push(...expanded.errors);
    else {
      suites.push(options.keep ? options.keep(expanded.value) : expanded.value);
      warnings.push(...(expanded.warnings ?? []));
    }
  }
  diagnostics.push(...duplicateSuiteNames(suites));
  if (diagnostics.length > 0) throw new InputError(sortDiagnostics([...diagnostics, ...warnings]));
  if (warnings.length > 0) options.onWarnings?.(sortDiagnostics(warnings));
  return suites;
}

/**
 * A suite file parsed up to its case sources, its tools files read in. A suite that names
 * tools files is checked again with them: what depends on the tools they declare (a
 * tool_choice naming one) can only be checked once they are read.
 */
async function specWithTools(
  text: string,
  f: SuiteFile,
  cwd: string,
  options: ParseSuiteOptions,
): Promise<Validated<SuiteSpec>> {
  const spec = parseSuiteSpec(text, f.shown, options);
  if (!spec.value || spec.value.toolPaths.length === 0) return spec;
  const tools = await readToolFiles(spec.value, f, cwd);
  if (tools.errors.length > 0) return { errors: tools.errors };
  return parseSuiteSpec(text, f.shown, { ...options, toolFiles: tools.files });
}

/**
 * One suite file's suite without its cases (its params with tools files read in), for what
 * needs the suite but not its cases (`pin --provider`): no table is read, no case expanded.
 */
export async function loadSuiteHead(
  path: string,
  options: ParseSuiteOptions & { cwd?: string } = {},
): Promise<SuiteSpec['suite']> {
  const cwd = options.cwd ?? process.cwd();
  const f: SuiteFile = { path, shown: displayPath(path, cwd) };
  const read = await readTextFile(path, f.shown);
  if (read.diagnostic) throw new InputError([read.diagnostic]);
  const spec = await specWithTools(read.text, f, cwd, options);
  if (spec.errors) throw new InputError(sortDiagnostics(spec.errors));
  return spec.value.suite;
}

/** The texts of a suite's tables, one after another (a table can be large), paths taken from the suite file's folder. */
async function readTables(spec: SuiteSpec, suite: SuiteFile, cwd: string): Promise<TableText[]> {
  const out: TableText[] = [];
  for (const table of spec.tables) {
    const path = resolve(dirname(suite.path), table.path);
    const file = displayPath(path, cwd);
    out.push({ file, read: await readTextFile(path, file, READ_LIMITS.table, TABLE_FILE) });
  }
  return out;
}

/** The tools files a suite names, read and checked, by the path as written (taken from the suite file's folder). */
async function readToolFiles(
  spec: SuiteSpec,
  suite: SuiteFile,
  cwd: string,
): Promise<{ files: Map<string, ToolsFile>; errors: Diagnostic[] }> {
  const files = new Map<string, ToolsFile>();
  const errors: Diagnostic[] = [];
  for (const written of spec.toolPaths) {
    const path = resolve(dirname(suite.path), written);
    const file = displayPath(path, cwd);
    const read = await readTextFile(path, file, READ_LIMITS.suite, 'a tools file (JSON or YAML)');
    const checked = readToolsFile(read, file, { ...spec.suite.location, message: '' });
    if (checked.errors) errors.push(...checked.errors);
    else files.set(written, checked.value);
  }
  return { files, errors };
}

/**
 * Two suites with one name would share one baseline file; report it at both places.
 * Case-insensitive, because macOS and Windows file names are.
 */
function duplicateSuiteNames(suites: Suite[]): Diagnostic[] {
  const byName = new Map<string, Suite[]>();
  for (const s of suites)
    byName.set(s.suite.toLowerCase(), [...(byName.get(s.suite.toLowerCase()) ?? []), s]);
  const out: Diagnostic[] = [];
  for (const group of byName.values()) {
    if (group.length < 2) continue;
    for (const s of group) {
      const others = group.filter((o) => o !== s).map((o) => `${o.location.file}:${o.location.line}`);
      out.push({
        ...s.location,
        message: `suite name ${show(s.suite)} is also used in ${others.join(', ')}`,
        hint: `suite names must be unique (ignoring case): each has its own baseline, baselines/<suite>.json; rename one`,
      });
    }
  }
  return out;
}
