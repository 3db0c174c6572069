import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, readSamples, REPO, runDirFrom } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';

// README's "Tool loops" example, as written, runs on the simulator (which answers from tool
// results and chains a result's sku into check_policy) and passes every check it shows.
const README = readFileSync(join(REPO, 'README.md'), 'utf8');
const section = README.split('### Tool loops\n')[1]!.split('\n### ')[0]!;
const suite = /```yaml\n([\s\S]*?)```/.exec(section)![1]!;

const tool = (name: string, required: string[], properties: Record<string, unknown>) => ({
  type: 'function',
  function: {
    name,
    description: name.replace('_', ' '),
    parameters: { type: 'object', required, properties },
  },
});
const TOOLS = {
  tools: [
    tool('lookup_order', ['order'], { order: { type: 'string' } }),
    tool('check_policy', ['sku'], { sku: { type: 'string' } }),
    tool('escalate', [], {}),
  ],
};

let project: Awaited<ReturnType<typeof makeProject>>;
beforeAll(async () => {
  project = await makeProject({
    'suites/support.yaml': suite,
    'suites/tools/support.json': JSON.stringify(TOOLS),
    // The example names a result file; the loader reads it with the suite.
    'suites/tool-results/b7-policy.json': '{ "refundable": true, "window_days": 14 }\n',
  });
});
afterAll(() => project.cleanup());

describe("README's tool loop", () => {
  it('validates and passes on the simulator, its trajectory the one it shows', async () => {
    const validate = await runMain(['validate', 'suites'], { cwd: project.dir });
    expect(validate.code, validate.stderr).toBe(0);
    const run = await runMain(['run', '--sim', 'suites', '--reporter', 'json'], { cwd: project.dir });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const [sample] = await readSamples(runDirFrom(run, project.dir));
    expect(sample!.trajectory!.calls.map((t) => [t.tool, t.result])).toEqual([
      ['lookup_order', '{"status":"shipped","sku":"A-1"}'],
      ['check_policy', '{"refundable":true,"window_days":30}'],
    ]);
    expect(sample!.steps).toHaveLength(3);
    expect(sample!.checks.every((c) => c.pass)).toBe(true);
  });
});
