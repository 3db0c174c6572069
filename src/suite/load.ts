import { dirname, resolve } from 'node:path';
import { InputError } from '../util/errors.js';
import type { ModelCatalog } from '../core/catalog.js';
import type { Suite, SuiteCase } from './types.js';
import type { Diagnostic, Validated } from '../util/errors.js';
import { countOf } from '../util/numbers.js';
import { displayPath } from '../yaml/display-path.js';
import { readTextFile, readUtf8File, type TextRead } from '../yaml/read-text.js';
import { READ_LIMITS, type ReadLimit } from '../util/bounded-read.js';
import { sha256 } from '../util/sha256.js';
import { show, sortDiagnostics } from '../yaml/show.js';
import { expandSuitePaths, type SuiteFile } from './expand-paths.js';
import { type CaseSource, SuiteExpansion, sourceCases } from './expand.js';
import { type ParseSuiteOptions, parseSuiteSpec, withWarnings } from './parse.js';
import { TABLE_FILE } from './sources/index.js';
import { checkedPieces, pieceHashes, tableFile } from './table-reread.js';
import { resultPathsOf, type SuiteSpec, type ToolPath, toolPathsOf } from './spec.js';
import { parseYamlMapping } from '../yaml/parse-mapping.js';
import type { TableFound } from './table-cases.js';
import { readResultFile, readToolsFile } from './tools-file.js';

export interface LoadSuitesOptions extends ParseSuiteOptions {
  /** Base for relative paths and for the file names shown in messages (default process.cwd()). */
  cwd?: string;
  /** Called with the warnings of the suites that load (sorted); errors are thrown instead. */
  onWarnings?: (warnings: Diagnostic[]) => void;
  /**
   * Where a model catalog can be had (the router's /models, the simulator's), asked only
   * when a suite names an alias that will be refused, for a hint naming its family.
   */
  fetchCatalog?: () => Promise<ModelCatalog | undefined>;
  /**
   * What is kept of each suite's cases (default `all`). `none`: every case is still made
   * and checked, one at a time, as it is read, but none is kept — each suite comes back
   * with `cases: []`, its `counts` and `judges`; readSuiteCases reads the cases again when
   * they are wanted. So checking 100,000 rows never holds them at once. `{ hold: n }`: the
   * cases of suites written inline are kept when all the suites' cases together are within n
   * (a small run reads no suite twice); past n, none is kept (a large run would otherwise
   * hold its first n cases to its end, and they were a fifth of a 100,000-case run's heap).
   * `checked`: as `none`, for a caller that never reads them again (validate): no digest of
   * the suite nor hash of its tables' pieces is kept to read them against.
   */
  cases?: 'all' | 'none' | 'checked' | { hold: number };
}

/** A `~author/…` id anywhere in a file: cheap, and a false positive only costs a catalog read. */
const ALIAS_IN_TEXT = /~[^\s/]+\//;

/**
 * Reads and validates suites from files and folders (no paths: `suites/`), and the tables
 * they take cases from. Collects every problem in every file first, then throws one
 * InputError carrying them all, so a user fixes everything in one pass.
 */
export async function loadSuites(paths: string[], options: LoadSuitesOptions = {}): Promise<Suite[]> {
  const cwd = options.cwd ?? process.cwd();
  const { files, diagnostics } = await expandSuitePaths(paths.length > 0 ? paths : ['suites'], cwd);
  const suites: Suite[] = [];
  // One file read ahead of the one being checked: the texts of a hundred large files are
  // never held together, and a file's text is let go once its suite is made.
  const reads = files.map(() => null as Promise<TextRead> | null);
  const readAt = (i: number) => (reads[i] ??= files[i] ? readTextFile(files[i].path, files[i].shown) : null);
  // Asked only once a file names an alias that will be refused, for a hint naming its family.
  let catalog = options.catalog;
  let fetch = options.catalog || options.allowAlias ? undefined : options.fetchCatalog;
  const catalogFor = async (text: string): Promise<ModelCatalog | undefined> => {
    if (!fetch || !ALIAS_IN_TEXT.test(text)) return catalog;
    const asked = fetch;
    fetch = undefined;
    catalog ??= await asked();
    return catalog;
  };
  const warnings: Diagnostic[] = [];
  const wanted = options.cases ?? 'all';
  /** Cases of every suite so far, and what a held suite needs once the total passes the hold. */
  let total = 0;
  let held: { index: number; source: NonNullable<Suite['source']>; judges: NonNullable<Suite['judges']> }[] =
    [];
  for (const [i, f] of files.entries()) {
    const read = await readAt(i)!;
    reads[i] = null;
    void readAt(i + 1);
    if (read.diagnostic) {
      diagnostics.push(read.diagnostic);
      continue;
    }
    const found = await catalogFor(read.text);
    const withCatalog = { ...options, ...(found ? { catalog: found } : {}) };
    const spec = await specWithTools(read.text, f, cwd, withCatalog);
    if (spec.errors) {
      diagnostics.push(...spec.errors);
      continue;
    }
    const keep =
      wanted === 'checked'
        ? 'none'
        : typeof wanted === 'string'
          ? wanted
          : spec.value.tables.length === 0 && total + spec.value.inline.length <= wanted.hold
            ? 'all'
            : 'none';
    // Whether its cases may be read again (not held, or held only until the hold is passed):
    // then what they are read again from is kept, held to what was checked.
    const readAgain = wanted !== 'checked' && (keep === 'none' || typeof wanted !== 'string');
    const expansion = new SuiteExpansion(spec.value, withCatalog, keep);
    expansion.add({ inline: true });
    // One table at a time: its text is let go before the next is read (the hashes of its
    // pieces kept when it is to be read again).
    const tablePieces: string[][] = [];
    for (const t of spec.value.tables.keys()) {
      const input = await readTable(spec.value, t, f, cwd);
      if (readAgain && !input.read.diagnostic) tablePieces[t] = pieceHashes(input.read.bytes);
      expansion.add({
        table: t,
        input: { file: input.file, read: input.read.diagnostic ? input.read : { bytes: [input.read.bytes] } },
      });
    }
    const expanded = withWarnings(expansion.finish(), spec.warnings);
    if (expanded.errors) diagnostics.push(...expanded.errors);
    else {
      if (!readAgain) suites.push({ ...expanded.value, counts: expansion.counts });
      else {
        const source = { path: f.path, digest: sha256(read.text), tablePieces };
        if (keep === 'all') held.push({ index: suites.length, source, judges: expansion.judgesCalled() });
        suites.push({ ...expanded.value, counts: expansion.counts, ...(keep === 'none' ? { source } : {}) });
      }
      warnings.push(...(expanded.warnings ?? []));
    }
    total += expansion.counts.cases;
    if (typeof wanted !== 'string' && total > wanted.hold) {
      // Past the hold: the suites held so far let their cases go, to be read again (their
      // judges named, as a suite loaded without its cases names them).
      for (const { index, source, judges } of held)
        suites[index] = { ...suites[index]!, cases: [], source, judges };
      held = [];
    }
  }
  diagnostics.push(...duplicateSuiteNames(suites));
  if (diagnostics.length > 0) throw new InputError(sortDiagnostics([...diagnostics, ...warnings]));
  if (warnings.length > 0) options.onWarnings?.(sortDiagnostics(warnings));
  return suites;
}

/**
 * A suite file parsed up to its case sources, the files it names read in: its tools files
 * and its tool result files. A suite that names them is checked again with them: what
 * depends on the tools they declare (a tool_choice naming one) can only be checked once
 * they are read, and a rule's `file:` becomes the result it holds.
 */
async function specWithTools(
  text: string,
  f: SuiteFile,
  cwd: string,
  options: ParseSuiteOptions,
): Promise<Validated<SuiteSpec>> {
  const spec = parseSuiteSpec(text, f.shown, options);
  if (spec.errors) {
    // The named files' own problems are said with the suite's, so that one pass fixes all.
    const named = namedPathsIn(text, f.shown);
    const tools = await readToolFiles(named.tools, f, cwd);
    const results = await readResultFiles(named.results, f, cwd);
    const errors = [...tools.errors, ...results.errors];
    return errors.length > 0 ? { errors: sortDiagnostics([...spec.errors, ...errors]) } : spec;
  }
  const { toolPaths, resultPaths } = spec.value;
  if (toolPaths.length === 0 && resultPaths.length === 0) return spec;
  const tools = await readToolFiles(toolPaths, f, cwd);
  const results = await readResultFiles(resultPaths, f, cwd);
  const errors = [...tools.errors, ...results.errors];
  if (errors.length > 0) return { errors: sortDiagnostics(errors) };
  return parseSuiteSpec(text, f.shown, { ...options, toolFiles: tools.files, resultFiles: results.files });
}

/** The files a suite file names, read from a suite with problems (none when it is not a YAML mapping). */
function namedPathsIn(text: string, file: string): { tools: ToolPath[]; results: ToolPath[] } {
  const parsed = parseYamlMapping(text, file, 'suite', "'suite:'");
  if (parsed.errors) return { tools: [], results: [] };
  const yaml = parsed.value;
  const where = (pointer: string) => ({ file, ...yaml.locate(pointer) });
  return { tools: toolPathsOf(yaml.data, where), results: resultPathsOf(yaml.data, where) };
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

/** The bytes of a suite's table `t` (a table can be large), its path taken from the suite file's folder. */
async function readTable(spec: SuiteSpec, t: number, suite: SuiteFile, cwd: string) {
  const { path, file } = tableFile(spec, t, suite, cwd);
  return { file, read: await readUtf8File(path, file, READ_LIMITS.table, TABLE_FILE) };
}

/**
 * Each suite's cases as a plan reads them, for suites loaded with `options`: those it holds,
 * as they are (no asynchronous step per case), or readSuiteCases'.
 */
export function suiteCasesOf(options: LoadSuitesOptions): CasesOf {
  return (suite) => (casesNotHeld(suite) ? readSuiteCases(suite, options) : suite.cases);
}

/**
 * A suite's cases read again from its files, one at a time, in the order loadSuites puts
 * them in `suite.cases` (its written cases, then each table's rows in order), each equal to
 * what loadSuites makes: for a suite loaded with `cases: 'none'`, when the run reaches it
 * (a suite that holds its cases gives those).
 * `options` are those it was loaded with. A suite file that changed since it was loaded,
 * or a table whose text did (checked a piece at a time, each before any case made from
 * it), is refused with an InputError naming it: the cases would no longer be the ones planned.
 */
export async function* readSuiteCases(suite: Suite, options: LoadSuitesOptions): AsyncGenerator<SuiteCase> {
  // A suite that holds its cases gives them; only one loaded without them is read again.
  if (!suite.source) {
    if (suite.cases.length === 0 && (suite.counts?.cases ?? 0) > 0)
      throw new TypeError(`suite ${suite.suite} was not loaded by loadSuites (it has no source)`);
    yield* suite.cases;
    return;
  }
  const cwd = options.cwd ?? process.cwd();
  const f: SuiteFile = { path: suite.source.path, shown: suite.file };
  const changed = (file: string, what: string, then: string, also: Diagnostic[] = []) =>
    new InputError([
      {
        file,
        line: 1,
        column: 1,
        whole_file: true,
        message: `${what} ${file} of suite ${suite.suite} changed since the run was planned (${then} then)`,
        hint: `the results already journaled are kept; restore the ${what}, or run again`,
      },
      ...also,
    ]);
  const cases = suite.counts ? countOf(suite.counts.cases, 'case') : countOf(suite.cases.length, 'case');
  const read = await readTextFile(f.path, f.shown);
  if (read.diagnostic) throw changed(f.shown, 'suite file', cases, [read.diagnostic]);
  if (sha256(read.text) !== suite.source.digest) throw changed(f.shown, 'suite file', cases);
  // The same text, but what it names may not be (a tools file).
  const spec = await specWithTools(read.text, f, cwd, options);
  const planned = suite.tables ?? [];
  if (spec.errors) throw changed(f.shown, 'suite file', cases, sortDiagnostics(spec.errors));
  const found: TableFound = { problems: [], tables: [] };
  // Unchanged files make the cases they made when validated: a problem now is a changed setting.
  const refuseProblems = () => {
    if (found.problems.length === 0) return;
    const fatal = found.problems.filter((d) => d.severity !== 'warning');
    if (fatal.length > 0) throw new InputError(sortDiagnostics(fatal));
    found.problems.length = 0;
  };
  const made = (source: CaseSource) => sourceCases(spec.value, source, options, found);
  yield* made({ inline: true });
  for (const [t, then] of planned.entries()) {
    const { path, file } = tableFile(spec.value, t, f, cwd);
    const rows = countOf(then.rows, 'row');
    const tableChanged = (also: Diagnostic[] = []) => changed(then.file, 'table', rows, also);
    if (file !== then.file) throw tableChanged();
    const pieces = suite.source.tablePieces[t];
    if (!pieces)
      throw new TypeError(
        `suite ${suite.suite}: table ${then.file} has no piece hashes (loadSuites keeps them)`,
      );
    for (const c of made({
      table: t,
      input: { file, read: { bytes: checkedPieces(path, file, pieces, tableChanged) }, digest: then.digest },
    })) {
      refuseProblems();
      yield c;
    }
    refuseProblems();
  }
}

/** The tools files a suite names, read and checked, by the path as written. */
function readToolFiles(paths: readonly ToolPath[], suite: SuiteFile, cwd: string) {
  return readNamedFiles(paths, suite, cwd, READ_LIMITS.suite, 'a tools file (JSON or YAML)', readToolsFile);
}

/** The tool result files a suite names, read, by the path as written. */
function readResultFiles(paths: readonly ToolPath[], suite: SuiteFile, cwd: string) {
  return readNamedFiles(paths, suite, cwd, READ_LIMITS.toolResult, 'a tool result file', readResultFile);
}

/**
 * Files a suite names, each read (taken from the suite file's folder, within `limit`) and
 * checked by `check`, by the path as written; every file's problems together.
 */
async function readNamedFiles<T>(
  paths: readonly ToolPath[],
  suite: SuiteFile,
  cwd: string,
  limit: ReadLimit,
  expected: string,
  check: (
    read: TextRead,
    file: string,
    named: ToolPath,
  ) => { value: T; errors?: undefined } | { errors: Diagnostic[] },
): Promise<{ files: Map<string, T>; errors: Diagnostic[] }> {
  const files = new Map<string, T>();
  const errors: Diagnostic[] = [];
  for (const written of paths) {
    const path = resolve(dirname(suite.path), written.path);
    const file = displayPath(path, cwd);
    const checked = check(await readTextFile(path, file, limit, expected), file, written);
    if (checked.errors) errors.push(...checked.errors);
    else files.set(written.path, checked.value);
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

/** A suite's cases one at a time: held in memory, or read again from its files (a suite loaded without them). */
export type CasesOf = (suite: Suite) => AsyncIterable<SuiteCase> | Iterable<SuiteCase>;

/** A suite loaded without its cases (loadSuites' `cases: 'none'`): they must be read again. */
export function casesNotHeld(suite: Suite): boolean {
  return suite.cases.length === 0 && (suite.counts?.cases ?? 0) > 0;
}
