import { dirname, join } from 'node:path';
import type { SuiteCheckOptions } from '../checks/registry.js';
import type { Suite } from './types.js';
import type { Diagnostic, SourceLocation, Validated } from '../util/errors.js';
import { ajvDiagnostics } from '../yaml/ajv-diagnostics.js';
import { readYamlMapping, type YamlEngine, type YamlMapping } from '../yaml/parse-mapping.js';
import type { TextRead } from '../yaml/read-text.js';
import { sortDiagnostics } from '../yaml/show.js';
import { expandSuite } from './expand.js';
import { isRecord } from '../util/is-record.js';
import { duplicateCaseIds, explainId } from './ids.js';
import { suiteProblems } from './semantics.js';
import type { ToolsFile } from './request-problems.js';
import { buildSpec, type SuiteSpec } from './spec.js';
import { suiteValidator } from './validate-ajv.js';

export interface ParseSuiteOptions extends SuiteCheckOptions {
  /** Accept a `~author/family-latest` model (the `--allow-alias` flag). */
  allowAlias?: boolean;
  /** `full` skips the fast YAML path (tests compare the two); default `auto`. */
  yamlEngine?: YamlEngine;
  /**
   * The tools files the suite names, read (see readToolsFile), by the path as written;
   * absent: not read yet, and what depends on them is checked once they are.
   */
  toolFiles?: ReadonlyMap<string, ToolsFile>;
  /** The tool result files the suite names, read, by the path as written; absent as toolFiles. */
  resultFiles?: ReadonlyMap<string, string>;
}

/**
 * Parses and validates one suite file's text and makes its cases; every problem found
 * comes back as a positioned diagnostic. Pure: the caller reads the files — the suite,
 * and its tables' texts keyed by the path as written (see loadSuites).
 */
export function parseSuite(
  text: string,
  file: string,
  options: ParseSuiteOptions & { tables?: ReadonlyMap<string, TextRead> } = {},
): Validated<Suite> {
  const spec = parseSuiteSpec(text, file, options);
  if (spec.errors) return spec;
  const tables = spec.value.tables.map((t) => {
    const read = options.tables?.get(t.path);
    if (read === undefined) return undefined;
    const bytes = read.diagnostic ? read : { bytes: [Buffer.from(read.text, 'utf8')] };
    return { file: tablePath(file, t.path), read: bytes };
  });
  return withWarnings(expandSuite(spec.value, tables, options), spec.warnings);
}

/** A suite's result with the warnings found before its cases were made (its file's own). */
export function withWarnings(result: Validated<Suite>, earlier: Diagnostic[] | undefined): Validated<Suite> {
  if (!earlier?.length) return result;
  if (result.errors) return { errors: sortDiagnostics([...result.errors, ...earlier]) };
  return { ...result, warnings: sortDiagnostics([...earlier, ...(result.warnings ?? [])]) };
}

/** A table's path as messages name it: beside the suite's own, as the suite names it. */
function tablePath(suiteFile: string, path: string): string {
  return join(dirname(suiteFile), path);
}

/**
 * Parses and validates a suite file up to its case sources: the suite, its written
 * cases and its tables' templates, without reading any table.
 */
export function parseSuiteSpec(
  text: string,
  file: string,
  options: ParseSuiteOptions = {},
): Validated<SuiteSpec> {
  return readYamlMapping(
    text,
    file,
    'suite',
    "'suite:', 'service:', 'model:' and 'cases:'",
    (yaml) => checkSuite(yaml, options),
    options.yamlEngine,
  );
}

function checkSuite(yaml: YamlMapping, options: ParseSuiteOptions): Validated<SuiteSpec> {
  const validate = suiteValidator();
  const errors: Diagnostic[] = [];
  if (!validate(yaml.data)) {
    errors.push(
      ...ajvDiagnostics(validate.errors ?? [], yaml, {
        rootName: 'the suite',
        patterns: { suite: explainId, id: explainId },
      }),
    );
  }
  const problems = suiteProblems(yaml, options);
  const warnings = problems.filter((p) => p.severity === 'warning');
  errors.push(...problems.filter((p) => p.severity !== 'warning'));
  // Found with the rest, so that one pass fixes everything (warnings too); a clean suite has
  // its duplicate ids found by expandSuite.
  if (errors.length > 0)
    return { errors: sortDiagnostics([...errors, ...duplicateCaseIds(writtenIds(yaml)), ...warnings]) };
  return {
    value: buildSpec(yaml, options.toolFiles, options.resultFiles),
    ...(warnings.length ? { warnings: sortDiagnostics(warnings) } : {}),
  };
}

/** The written cases' ids, each where its case is written (read defensively: the suite has problems). */
function writtenIds(yaml: YamlMapping): { id: string; location: SourceLocation }[] {
  const { cases } = yaml.data;
  if (!Array.isArray(cases)) return [];
  return cases.flatMap((c: unknown, i) =>
    isRecord(c) && typeof c.id === 'string'
      ? [{ id: c.id, location: { file: yaml.file, ...yaml.locate(`/cases/${i}`) } }]
      : [],
  );
}
