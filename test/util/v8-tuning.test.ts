import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

// V8 flags are process-wide: each case runs the built module (`npm test` builds first) in
// a child process of its own and reports what V8 ended up with.
const tuning = pathToFileURL(resolve('dist/util/v8-tuning.js')).href;

function probe(nodeFlags: string[], call: string): { before: number; after: number; later: number } {
  const script = `
    import v8 from 'node:v8';
    const { tuneV8ForRun } = await import(${JSON.stringify(tuning)});
    const young = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / 2 ** 20;
    const before = young();
    ${call};
    const after = young();
    // A run's pattern: much garbage, and data that lives to the end.
    const kept = [];
    for (let i = 0; i < 400_000; i++) {
      const item = { i, text: 'sample ' + i, list: [i, i + 1] };
      if (i % 4 === 0) kept.push(item);
    }
    console.log(JSON.stringify({ before, after, later: young(), kept: kept.length }));
  `;
  return runModule(script, nodeFlags) as { before: number; after: number; later: number };
}

/** Runs `script` as an ES module in a node process of its own; returns what it printed, parsed. */
function runModule(script: string, nodeFlags: string[] = []): unknown {
  return JSON.parse(
    execFileSync(process.execPath, [...nodeFlags, '--input-type=module', '-e', script], { encoding: 'utf8' }),
  );
}

describe('tuneV8ForRun', () => {
  it('grows the young generation to 8 MB at once and keeps it there', () => {
    const out = probe([], 'tuneV8ForRun([], {})');
    expect(out.before).toBeLessThan(8);
    expect(out.after).toBe(8);
    expect(out.later).toBe(8);
  });

  it('leaves it to V8 without the call (the cap is what holds it)', () => {
    const out = probe([], 'void 0');
    expect(out.later).toBeGreaterThan(8);
  });

  it("lets the user's own V8 flags win", () => {
    const out = probe(['--max-semi-space-size=16'], "tuneV8ForRun(['--max-semi-space-size=16'], {})");
    expect(out.after).toBe(out.before);
    expect(out.later).toBeGreaterThan(8);
    const viaEnv = probe([], "tuneV8ForRun([], { NODE_OPTIONS: '--max-semi-space-size=4' })");
    expect(viaEnv.after).toBe(viaEnv.before);
  });
});

describe('tuneV8ForLargeRun', () => {
  // In a child process too: applying it changes the V8 of the process that calls it.
  function decide(call: string): boolean {
    const script = `
      const { tuneV8ForLargeRun, LARGE_RUN_CHARS } = await import(${JSON.stringify(tuning)});
      console.log(JSON.stringify(${call}));
    `;
    return runModule(script) as boolean;
  }

  it('applies from the large-run threshold of suite text on, not below it', () => {
    expect(decide('tuneV8ForLargeRun(LARGE_RUN_CHARS - 1, [], {})')).toBe(false);
    expect(decide('tuneV8ForLargeRun(LARGE_RUN_CHARS, [], {})')).toBe(true);
  });

  it("lets the user's own heap-growing flag win, on the command line or in NODE_OPTIONS", () => {
    expect(decide("tuneV8ForLargeRun(LARGE_RUN_CHARS, ['--heap-growing-percent=80'], {})")).toBe(false);
    expect(
      decide("tuneV8ForLargeRun(LARGE_RUN_CHARS, [], { NODE_OPTIONS: '--heap-growing-percent=80' })"),
    ).toBe(false);
  });
});
