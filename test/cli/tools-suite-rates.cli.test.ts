import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { comparePassRates } from '../../src/stats/index.js';
import { makeProject, readReport, runDirFrom } from '../helpers/cli.js';
import { runMain } from '../helpers/main.js';
import { reportSchemaErrors } from '../helpers/report-schema.js';

// Tool drift of repeated cases is judged over the suite, adjusted for its number of cases
// (src/record/tool-rates.ts): on the simulator, a suite of 10 tool cases × 20 samples.
const CASES = 10;
const REPEAT = '20';

/** The suite, each case with `sim` (a directive of the simulator for that night) when given. */
function suite(sim: string | null): string {
  const lines = [
    'suite: orders',
    'service: router',
    'model: meta-llama/llama-3.3-70b-instruct',
    'params:',
    '  max_tokens: 64',
    '  tool_choice: required',
    '  tools:',
    '    - type: function',
    '      function:',
    '        name: get_order_status',
    '        description: Look up where an order is',
    '        parameters:',
    '          type: object',
    '          required: [order_id]',
    '          additionalProperties: false',
    '          properties: { order_id: { type: string, pattern: "^A-[0-9]+$" } }',
    'cases:',
  ];
  for (let i = 1; i <= CASES; i++) {
    lines.push(`  - id: order-${i}`, `    prompt: "Where is my order A-10${i}?"`);
    if (sim) lines.push(`    sim: ${sim}`);
  }
  return `${lines.join('\n')}\n`;
}

/** A night on the simulator with its coins seeded: the same seed replays the same night. */
const night = (dir: string, seed: number, ...args: string[]) =>
  runMain(['run', '--sim', 'suites', '--repeat', REPEAT, ...args], {
    cwd: dir,
    env: { DRIFTCHECK_SIM_SEED: String(seed) },
  });

/** One call in ten misses the tool's schema (the provider's standing trait, or tonight's fault). */
const MISSES_ONE_IN_TEN = '{ tool_fault: schema_mismatch, tool_fault_rate: 0.1 }';

let cleanup: (() => Promise<void>) | null = null;
afterEach(async () => {
  await cleanup?.();
  cleanup = null;
});

describe('tool drift of a repeated tool suite, over the suite', () => {
  it('fails the night the provider starts missing the schema in 1 call of 10: a suite-level tool_call_invalid no single case shows', async () => {
    const project = await makeProject({ 'suites/orders.yaml': suite(null) });
    cleanup = project.cleanup;
    const first = await night(project.dir, 1, '--update-baselines');
    expect(first.code, first.stdout + first.stderr).toBe(0);
    await writeFile(join(project.dir, 'suites/orders.yaml'), suite(MISSES_ONE_IN_TEN));
    const r = await night(project.dir, 2);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    const report = await readReport(runDirFrom(r, project.dir));
    expect(reportSchemaErrors(report)).toEqual([]);
    const valid = report.cases.map((c) => c.tool_use!.valid);
    // Every case is still mostly valid: none is flagged once adjusted for the suite's 10 cases (below).
    expect(Math.min(...valid)).toBeGreaterThanOrEqual(15);
    const drift = report.suites[0]!.drift.filter((d) => d.kind === 'tool_call_invalid');
    expect(drift.map((d) => d.severity)).toEqual(['fail']);
    const total = valid.reduce((a, b) => a + b, 0);
    expect(total).toBeLessThan(200);
    expect(drift[0]!.message).toMatch(
      new RegExp(
        `^suite valid-call rate 100% \\(200/200\\) → \\d+% \\(${total}/200\\) over ${CASES} repeated tool cases, p = `,
      ),
    );
    expect(r.stdout).toMatch(
      /✗ orders \(suite\) tool_call_invalid\n\s+suite valid-call rate 100% \(200\/200\)/,
    );
    // No case is flagged on its own, and nothing else tells the night apart (same provider, no checks).
    const fails = report.cases.flatMap((c) => c.drift.filter((d) => d.severity === 'fail'));
    expect(fails).toEqual([]);
    const junit = await readFile(join(runDirFrom(r, project.dir), 'junit.xml'), 'utf8');
    // JUnit: a failing testcase for the suite's finding, named by its kind.
    expect(junit).toMatch(
      /<testcase name="\(suite\) tool_call_invalid"[^>]*>\s*<failure message="suite valid-call rate 100% \(200\/200\)[^"]*" type="tool_call_invalid"\/>/,
    );
  });

  it('passes a night of a provider that always missed 1 call in 10 and still does, though one case alone would be flagged unadjusted', async () => {
    const project = await makeProject({ 'suites/orders.yaml': suite(MISSES_ONE_IN_TEN) });
    cleanup = project.cleanup;
    const first = await night(project.dir, 1, '--update-baselines');
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const r = await night(project.dir, 6);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const report = await readReport(runDirFrom(r, project.dir));
    const baseline = JSON.parse(await readFile(join(project.dir, 'baselines/orders.json'), 'utf8'));
    // The night is no copy of the baseline's: some case's valid calls fell far enough that its
    // own exact test at 0.05, unadjusted (the rule before), would have called it a drop.
    const alone = report.cases.map((c) => {
      const was = baseline.cases[c.case].tool_calls;
      return comparePassRates(
        { pass: was.valid, total: was.triggered },
        { pass: c.tool_use!.valid, total: c.tool_use!.triggered },
      ).p;
    });
    expect(Math.min(...alone)).toBeLessThanOrEqual(0.05);
    const kinds = [...report.suites[0]!.drift, ...report.cases.flatMap((c) => c.drift)].map((d) => d.kind);
    expect(kinds).not.toContain('tool_call_invalid');
    expect(kinds).not.toContain('tool_trigger_changed');
    expect(r.stdout).toMatch(/PASS — no failure, no regression \(exit 0\)/);
  });
});
