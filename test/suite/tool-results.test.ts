import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InputError } from '../../src/util/errors.js';
import { loadSuites, readSuiteCases } from '../../src/suite/load.js';
import type { Diagnostic } from '../../src/util/errors.js';
import type { SuiteCase } from '../../src/suite/types.js';

// `tool_results:` as a suite file writes it, read through the loader from real files: the
// forms of a tool's results, a case's over the suite's, and results read from files.

const head = `suite: agent
service: router
model: openai/gpt-4o-mini
params:
  tools:
    - type: function
      function: { name: lookup_order, parameters: { type: object, properties: { id: { type: string } } } }
    - type: function
      function: { name: check_policy, parameters: { type: object, properties: { sku: { type: string } } } }
`;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'driftcheck-tool-results-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function casesOf(text: string): Promise<SuiteCase[]> {
  await writeFile(join(dir, 'agent.yaml'), text);
  const [suite] = await loadSuites(['agent.yaml'], { cwd: dir });
  const out: SuiteCase[] = [];
  for await (const c of readSuiteCases(suite!, { cwd: dir })) out.push(c);
  return out;
}

async function problemsOf(text: string): Promise<string[]> {
  await writeFile(join(dir, 'agent.yaml'), text);
  const error = await loadSuites(['agent.yaml'], { cwd: dir }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InputError);
  return (error as InputError).diagnostics.map(
    (d: Diagnostic) => `${d.file}:${d.line}:${d.column}: ${d.message}`,
  );
}

describe('tool_results', () => {
  it('reads a text, one rule, a list of rules, and a file; a case replaces the suite’s tools one by one', async () => {
    await mkdir(join(dir, 'results'));
    await writeFile(join(dir, 'results', 'kettle.json'), '{ "returnable": true, "window": "30 days" }\n');
    await writeFile(join(dir, 'results', 'plain.txt'), 'no such order');
    const [shared, own] = await casesOf(
      head +
        `tool_results:
  lookup_order: '{"sku":"KETTLE-2"}'
  check_policy:
    - when: { sku: KETTLE-2 }
      file: results/kettle.json
    - result: { returnable: false }
cases:
  - id: shared
    prompt: Can I return it?
  - id: own
    prompt: Can I return it?
    tool_results:
      lookup_order: { file: results/plain.txt }
`,
    );
    expect(shared!.tool_results).toEqual({
      lookup_order: [{ result: '{"sku":"KETTLE-2"}' }],
      check_policy: [
        { when: { sku: 'KETTLE-2' }, result: '{ "returnable": true, "window": "30 days" }\n' },
        { result: '{"returnable":false}' },
      ],
    });
    // The case's lookup_order replaces the suite's; check_policy is still the suite's.
    expect(own!.tool_results!.lookup_order).toEqual([{ result: 'no such order' }]);
    expect(own!.tool_results!.check_policy).toEqual(shared!.tool_results!.check_policy);
  });

  it('says where a result file is named when it cannot be read, and where a .json one stops being JSON', async () => {
    const suite =
      head +
      `cases:
  - id: a
    prompt: hi
    tool_results:
      lookup_order:
        - when: { id: "1" }
          file: missing.json
`;
    expect(await problemsOf(suite)).toEqual([
      "agent.yaml:16:17: 'cases[0].tool_results.lookup_order[0].file' names the tool result file missing.json, which cannot be read: no such file or folder",
    ]);
    await writeFile(join(dir, 'missing.json'), '{\n  "status": "shipped",,\n}\n');
    const [bad] = await problemsOf(suite);
    expect(bad).toMatch(/^missing\.json:2:23: JSON syntax error/);
  });

  it('refuses a result file named by a placeholder: each row says so, and nothing is sent as an empty result', async () => {
    await writeFile(join(dir, 'rows.jsonl'), '{"n":"1","f":"one.json"}\n{"n":"2","f":"two.json"}\n');
    await writeFile(join(dir, 'one.json'), '{}');
    const problems = await problemsOf(
      head +
        `tables:
  - path: rows.jsonl
    case:
      id: "r-{{n}}"
      prompt: "Where is order {{n}}?"
      tool_results:
        lookup_order: { file: "{{f}}" }
`,
    );
    expect(problems).toHaveLength(2);
    for (const p of problems)
      expect(p).toMatch(
        /^rows\.jsonl:\d:1: case 'r-\d' from this row: .*names a result file by a placeholder/,
      );
  });

  it('refuses a rule that gives both a result and a file', async () => {
    await writeFile(join(dir, 'o.txt'), 'x');
    const problems = await problemsOf(
      head + `tool_results:\n  lookup_order: { file: o.txt, result: x }\ncases:\n  - id: a\n    prompt: hi\n`,
    );
    expect(problems).toContain("agent.yaml:11:19: 'tool_results.lookup_order' has both 'result' and 'file'");
  });
});
