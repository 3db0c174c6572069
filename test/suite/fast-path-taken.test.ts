import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../../src/config/parse.js';
import { parseSuite } from '../../src/suite/parse.js';
import { loadSuites } from '../../src/suite/load.js';
import { REPO } from '../helpers/cli.js';
import type * as Lazy from '../../src/util/lazy.js';

// The fast path buys its speed only when a file never reaches the full path. A suite that
// passes is read again by `yaml` whenever checking it asks for a position the line scan
// does not give — silently: same answer, seven times the CPU on 100,000 cases (it happened
// when `model_location` was added). So this holds the files it is for to never loading
// `yaml` at all. The library itself is the real one; this only counts who asks for it.
const asked = vi.hoisted(() => ({ yaml: 0 }));
vi.mock('../../src/util/lazy.js', async (importOriginal) => {
  const lazy = await importOriginal<typeof Lazy>();
  return {
    ...lazy,
    yamlLibrary: () => {
      asked.yaml += 1;
      return lazy.yamlLibrary();
    },
  };
});

beforeEach(() => {
  asked.yaml = 0;
});

/** A suite written out case by case, as the bench's workload writes 1,000 to a file. */
function writtenSuite(cases: number): string {
  const lines = ['suite: bench-0001', 'service: router', 'model: openai/gpt-4o-mini', 'cases:'];
  for (let n = 1; n <= cases; n++)
    lines.push(
      `  - id: case-${n}`,
      `    prompt: "Say exactly: case ${n}"`,
      '    expect:',
      `      - contains: "case ${n}"`,
    );
  return `${lines.join('\n')}\n`;
}

const read = (path: string) => readFileSync(join(REPO, path), 'utf8');

describe('fast YAML path: taken end to end, `yaml` never loaded', () => {
  it('for a suite written case by case, as the bench writes it', () => {
    const suite = parseSuite(writtenSuite(3), 'suites/bench-0001.yaml');
    expect(suite.errors).toBeUndefined();
    expect(suite.value?.model_location).toEqual({ file: 'suites/bench-0001.yaml', line: 3, column: 8 });
    expect(asked.yaml).toBe(0);
  });

  it.each([
    'suites/demo/direct.yaml',
    'suites/demo/support.yaml',
    'suites/demo/tools.yaml',
    'suites/demo/agent.yaml',
    'suites/demo/streaming.yaml',
  ])('for the demo suite %s', (path) => {
    expect(parseSuite(read(path), path).errors).toBeUndefined();
    expect(asked.yaml).toBe(0);
  });

  it('for the whole demo, its tables read (a table is located lazily, for a diagnostic only: spec.ts)', async () => {
    const suites = await loadSuites(['suites/demo'], { cwd: REPO });
    expect(suites.find((s) => s.suite === 'table-demo')?.cases.length).toBeGreaterThan(0);
    expect(asked.yaml).toBe(0);
  });

  it("and a table's problem is still said where the suite writes its placeholder (from the full path, then)", () => {
    const text = read('suites/demo/tables.yaml');
    const suite = parseSuite(text, 'suites/demo/tables.yaml', {
      tables: new Map([
        ['data/arithmetic.csv', { text: 'a,b,total\n1,2,3\n' }],
        ['data/greetings.jsonl', { text: '{"lang":"en","greeting":"hi","checks":[{"contains":"hi"}]}\n' }],
      ]),
    });
    const [problem] = suite.errors!;
    expect(problem).toMatchObject({
      message: expect.stringContaining('placeholder {{sum}} names no column'),
      line: text.split('\n').findIndex((l) => l.includes('{{sum}}')) + 1,
    });
    expect(asked.yaml).toBeGreaterThan(0);
  });

  it('for the shipped config', () => {
    const config = parseConfig(read('driftcheck.config.yaml'), 'driftcheck.config.yaml', {});
    expect(config.errors).toBeUndefined();
    expect(asked.yaml).toBe(0);
  });

  it('and counts a file the fast path declines (the count above is not always 0)', () => {
    const aliased = writtenSuite(2).replace('"case 1"', '&said "case 1"').replace('"case 2"', '*said');
    expect(parseSuite(aliased, 'suites/aliased.yaml').errors).toBeUndefined();
    expect(asked.yaml).toBeGreaterThan(0);
  });
});
