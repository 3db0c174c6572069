import { InputError } from '../errors.js';
import type { ModelCatalog } from '../checks/registry.js';
import type { Diagnostic, Suite } from '../types.js';
import { readTextFile } from '../yaml/read-text.js';
import { show, sortDiagnostics } from '../yaml/show.js';
import { expandSuitePaths } from './expand-paths.js';
import { type ParseSuiteOptions, parseSuite } from './parse.js';

export interface LoadSuitesOptions extends ParseSuiteOptions {
  /** Base for relative paths and for the file names shown in messages (default process.cwd()). */
  cwd?: string;
  /** Called once every file is read, before any is parsed, with their total length in characters. */
  onRead?: (chars: number) => void;
  /** Called with the warnings of the suites that load (sorted); errors are thrown instead. */
  onWarnings?: (warnings: Diagnostic[]) => void;
  /**
   * Where a model catalog can be had (the router's /models, the simulator's), asked only
   * when a suite names an alias that will be refused, for a hint naming its family.
   */
  fetchCatalog?: () => Promise<ModelCatalog | undefined>;
}

/** A `~author/…` id anywhere in a file: cheap, and a false positive only costs a catalog read. */
const ALIAS_IN_TEXT = /~[^\s/]+\//;

/**
 * Reads and validates suites from files and folders (no paths: `suites/`). Collects
 * every problem in every file first, then throws one InputError carrying them all, so
 * a user fixes everything in one pass.
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
  files.forEach((f, i) => {
    const read = reads[i];
    if (!read) return;
    if (read.diagnostic) {
      diagnostics.push(read.diagnostic);
      return;
    }
    const parsed = parseSuite(read.text, f.shown, { ...options, ...(catalog ? { catalog } : {}) });
    if (parsed.errors) diagnostics.push(...parsed.errors);
    else {
      suites.push(parsed.value);
      warnings.push(...(parsed.warnings ?? []));
    }
  });
  diagnostics.push(...duplicateSuiteNames(suites));
  if (diagnostics.length > 0) throw new InputError(sortDiagnostics([...diagnostics, ...warnings]));
  if (warnings.length > 0) options.onWarnings?.(sortDiagnostics(warnings));
  return suites;
}

/**
 * Two suites with one name would share one baseline file; report it at both places.
 * Case-insensitive, because macOS and Windows file names are.
 */
export function duplicateSuiteNames(suites: Suite[]): Diagnostic[] {
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
