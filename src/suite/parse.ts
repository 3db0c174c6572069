import type { SuiteCheckOptions } from '../checks/registry.js';
import type { Diagnostic, Suite, Validated } from '../types.js';
import { ajvDiagnostics } from '../yaml/ajv-diagnostics.js';
import { readYamlMapping, type YamlEngine, type YamlMapping } from '../yaml/parse-mapping.js';
import { sortDiagnostics } from '../yaml/show.js';
import { buildSuite } from './build.js';
import { explainBadId } from './ids.js';
import { suiteProblems } from './semantics.js';
import { suiteValidator } from './validate-ajv.js';

export interface ParseSuiteOptions extends SuiteCheckOptions {
  /** Accept a `~author/family-latest` model (the `--allow-alias` flag). */
  allowAlias?: boolean;
  /** `full` skips the fast YAML path (tests compare the two); default `auto`. */
  yamlEngine?: YamlEngine;
}

const explainId = (id: string) =>
  explainBadId(id) ?? { message: 'is not a valid id', hint: "use ASCII letters, digits, '.', '_' and '-'" };

/**
 * Parses and validates one suite file's text; every problem found comes back as a
 * positioned diagnostic. Pure: the caller reads the file (see loadSuites).
 */
export function parseSuite(text: string, file: string, options: ParseSuiteOptions = {}): Validated<Suite> {
  return readYamlMapping(
    text,
    file,
    'suite',
    "'suite:', 'service:', 'model:' and 'cases:'",
    (yaml) => checkSuite(yaml, options),
    options.yamlEngine,
  );
}

function checkSuite(yaml: YamlMapping, options: ParseSuiteOptions): Validated<Suite> {
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
  // A suite with errors reports its warnings with them: one pass fixes everything.
  if (errors.length > 0) return { errors: sortDiagnostics([...errors, ...warnings]) };
  return { value: buildSuite(yaml), ...(warnings.length ? { warnings: sortDiagnostics(warnings) } : {}) };
}
