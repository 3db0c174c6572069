import type { Diagnostic } from '../types.js';
import { ajvDiagnostics } from '../yaml/ajv-diagnostics.js';
import { parseYamlMapping } from '../yaml/parse-mapping.js';
import { shippedValidator } from '../yaml/schemas.js';
import type { TextRead } from '../yaml/read-text.js';
import { toolListProblems, type ToolsFile } from './request-problems.js';

/**
 * A tools file a suite names in `params.tools` (`{ tools: [...] }`, JSON or YAML, as a
 * request body holds them), checked like the suite: its schema, then unique names and
 * parameters schemas that compile, each problem at its line and column in the file. Pure:
 * the loader reads the text; `named` is where the suite names it, said in every problem.
 */
export function readToolsFile(
  read: TextRead,
  file: string,
  named: Diagnostic,
): { value: ToolsFile; errors?: undefined } | { errors: Diagnostic[] } {
  const from = `the suite names it at ${named.file}:${named.line}:${named.column}`;
  if (read.diagnostic)
    return { errors: [{ ...read.diagnostic, hint: `${read.diagnostic.hint ?? ''} (${from})`.trim() }] };
  const parsed = parseYamlMapping(read.text, file, 'tools file', "'tools:' and a list of tools");
  if (parsed.errors) return { errors: parsed.errors };
  const yaml = parsed.value;
  const validate = shippedValidator('tools');
  if (!validate(yaml.data))
    return { errors: ajvDiagnostics(validate.errors ?? [], yaml, { rootName: 'the tools file' }) };
  const tools = yaml.data.tools as unknown[];
  const problems = toolListProblems(tools, 'tools').map((p): Diagnostic => ({
    file,
    ...yaml.locate(`/tools${p.pointer}`),
    message: p.message,
    hint: p.hint,
  }));
  if (problems.length > 0) return { errors: problems };
  return { value: { file, tools, location: { file, line: 1, column: 1 } } };
}
