import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readHistory } from '../../src/stored/history/read.js';
import { runCli } from '../helpers/cli.js';
import { historyLines, TOOL_NIGHTS_ENV, toolNights, type ToolNights } from '../helpers/tool-nights.js';

describe('the history keeps tool-call counts per case (demo tool suite, three simulated nights)', () => {
  let nights: ToolNights;
  let lines: Record<string, unknown>[];

  beforeAll(async () => {
    nights = await toolNights();
    lines = await historyLines(nights.dir);
  }, 120_000);
  afterAll(() => nights?.cleanup());

  /** The case lines of each night, by `suite/case`, in night order. */
  const byNight = () => {
    const out: Map<string, Record<string, unknown>>[] = [];
    for (const line of lines) {
      if (line.t === 'run') out.push(new Map());
      else if (line.t === undefined) out[out.length - 1]!.set(`${line.s}/${line.c}`, line);
    }
    return out;
  };

  it("stores each tool case's answered, triggered and valid counts as its report aggregated them", () => {
    const stored = byNight();
    expect(stored).toHaveLength(3);
    nights.reports.forEach((report, night) => {
      for (const c of report.cases.filter((x) => x.suite === 'tools-demo')) {
        const use = c.tool_use!;
        expect(use, c.id).not.toBeNull();
        expect(stored[night]!.get(c.id)!.tu, `${c.id} night ${night + 1}`).toEqual([
          use.answered,
          use.triggered,
          use.valid,
        ]);
      }
    });
    const refund = stored.map((n) => n.get('tools-demo/refund')!.tu as number[]);
    // Night 1 behaves: every one of the 10 samples called, every call valid.
    expect(refund[0]).toEqual([10, 10, 10]);
    // Then the router moved the suite to DeepInfra: still called, most calls miss the schema.
    for (const [answered, triggered, valid] of refund.slice(1)) {
      expect([answered, triggered]).toEqual([10, 10]);
      expect(valid).toBeLessThan(10);
    }
    expect(stored.map((n) => n.get('tools-demo/order-status')!.tu)).toEqual([
      [1, 1, 1],
      [1, 1, 0],
      [1, 1, 0],
    ]);
    // A case with tools that answers in text: counted as answered, never triggered.
    for (const n of stored) expect(n.get('tools-demo/opening-hours')!.tu).toEqual([1, 0, 0]);
  });

  it('writes no tool counts for a case without tools, and reads the counts back', async () => {
    for (const n of byNight()) {
      const plain = n.get('plain/greeting')!;
      expect(plain).toBeDefined();
      expect(plain).not.toHaveProperty('tu');
    }
    const history = await readHistory(join(nights.dir, 'history'));
    expect(history.problems).toEqual([]);
    const last = history.runs[2]!.cases;
    expect(last.find((c) => c.case === 'greeting')!.tools).toBeNull();
    const refund = last.find((c) => c.case === 'refund')!.tools!;
    expect(refund).toEqual({
      answered: 10,
      triggered: 10,
      valid: nights.reports[2]!.cases.find((c) => c.id === 'tools-demo/refund')!.tool_use!.valid,
    });
  });

  it('renders the trend page with the tool counts of the tool cases only', async () => {
    const page = await runCli(['history', 'history', '--out', 'trend.html'], {
      cwd: nights.dir,
      env: TOOL_NIGHTS_ENV,
    });
    expect(page.code, page.stderr).toBe(0);
    const html = await readFile(join(nights.dir, 'trend.html'), 'utf8');
    const data = JSON.parse(
      html.match(/<script type="application\/json" id="trend-data">(.*?)<\/script>/s)![1]!,
    );
    const caseOf = (id: string) => data.cases.find((c: { id: string }) => c.id === id);
    expect(caseOf('tools-demo/order-status').tools).toEqual({ 0: [1, 1, 1], 1: [1, 1, 0], 2: [1, 1, 0] });
    expect(caseOf('plain/greeting')).not.toHaveProperty('tools');
    const suiteOf = (name: string) => data.suites.find((s: { suite: string }) => s.suite === name);
    expect(suiteOf('tools-demo').tools[0]).toEqual([12, 11, 11]);
    expect(suiteOf('plain')).not.toHaveProperty('tools');
  });
});
