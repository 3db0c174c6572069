import type { Diagnostic } from '../util/errors.js';
import { ajvDiagnostics } from '../yaml/ajv-diagnostics.js';
import { parseYamlMapping } from '../yaml/parse-mapping.js';
import { shippedValidator } from '../yaml/schemas.js';
import type { TextRead } from '../yaml/read-text.js';
import { toolListProblems, type ToolsFile } from './request-problems.js';
import type { ToolPath } from './spec.js';
import { describeJsonError, lineColumnOf } from '../yaml/json-error.js';

/**
 * A tools file a suite names in `params.tools` (`{ tools: [...] }`, JSON or YAML, as a
 * request body holds them), checked like the suite: its schema, then unique names and
 * parameters schemas that compile, each problem at its line and column in the file. Pure:
 * the loader reads the text; `named` is where the suite names it, said in every problem.
 */
export function readToolsFile(
  read: TextRead,
  file: string,
  named: Pick<ToolPath, 'named' | 'location'>,
): { value: ToolsFile; errors?: undefined } | { errors: Diagnostic[] } {
  const text = namedText(read, file, named, 'tools file', '{ "tools": [ … ] }');
  if (text.errors) return text;
  const parsed = parseYamlMapping(text.value, file, 'tools file', "'tools:' and a list of tools");
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

/**
 * A tool result file a suite names (`file:` in a `tool_results:` rule): its text, sent as
 * written; a .json file must parse, its syntax errors said where they are. Pure, as
 * readToolsFile.
 */
export function readResultFile(
  read: TextRead,
  file: string,
  named: Pick<ToolPath, 'named' | 'location'>,
): { value: string; errors?: undefined } | { errors: Diagnostic[] } {
  return namedText(read, file, named, 'tool result file', 'any JSON value, as the tool would return it');
}

/**
 * The text of a file a suite names, or its problems: a file that cannot be read at all is
 * the suite's line that names it; a .json file's syntax errors are said as JSON's, where
 * they are. Every problem says where the suite names the file.
 */
function namedText(
  read: TextRead,
  file: string,
  named: Pick<ToolPath, 'named' | 'location'>,
  kind: string,
  jsonShape: string,
): { value: string; errors?: undefined } | { errors: Diagnostic[] } {
  const from = `the suite names it at ${named.location.file}:${named.location.line}:${named.location.column}`;
  if (read.diagnostic) {
    const d = read.diagnostic;
    if (d.whole_file)
      return {
        errors: [
          {
            ...named.location,
            message: `'${named.named}' names the ${kind} ${file}, which cannot be read: ${d.message}`,
            hint: `${d.hint ?? 'check the path'} (it is taken from the suite file's folder)`,
          },
        ],
      };
    return { errors: [{ ...d, hint: `${d.hint ?? ''} (${from})`.trim() }] };
  }
  if (file.toLowerCase().endsWith('.json')) {
    try {
      JSON.parse(read.text);
    } catch (error) {
      const { message, offset } = describeJsonError(error, read.text);
      return {
        errors: [
          {
            file,
            ...lineColumnOf(read.text, offset),
            message: `JSON syntax error: ${message}`,
            hint: `a .json ${kind} is JSON: ${jsonShape}; check the brackets, quotes and commas up to here (${from})`,
          },
        ],
      };
    }
  }
  return { value: read.text };
}
