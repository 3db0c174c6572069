import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { axisLabels, nightLabels, trendPageData } from '../../../src/history/page/data.js';
import { runEvents, suiteEvents } from '../../../src/history/page/events.js';
import { renderTrendPage } from '../../../src/history/page/render.js';
import type { History } from '../../../src/stored/history/types.js';
import { makeCase, makeRun } from '../fixture.js';

const sha = (body: string) => `'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`;

function history(): History {
  const suites = (models: string[], providers: string[], baseline: string | null) => [
    { suite: 'support', models, providers, baseline_source_run: baseline },
  ];
  const runs = [
    { ...makeRun(0, { suites: suites(['a'], ['P'], null) }), cases: [makeCase('x')] },
    { ...makeRun(1, { suites: suites([], [], null), status: 'paused', exit_code: 3 }), cases: [] },
    {
      ...makeRun(2, { suites: suites(['b'], ['P'], 'r0') }),
      cases: [makeCase('x', { status: 'fail', passes: 3 })],
    },
    { ...makeRun(3, { suites: suites(['b'], ['Q'], 'r0') }), cases: [makeCase('x')] },
  ];
  return { runs, baselines: [], problems: [] };
}

describe('trend page data', () => {
  it('marks model, provider and baseline changes, never a night nobody answered', () => {
    expect(suiteEvents(history(), 'support')).toEqual([
      { night: 2, kind: 'model_changed', text: 'model a → b' },
      { night: 2, kind: 'baseline_accepted', text: 'baseline from run r0' },
      { night: 3, kind: 'provider_changed', text: 'provider P → Q' },
    ]);
    expect(runEvents(history().runs)).toEqual([{ night: 1, kind: 'paused', text: 'run paused (exit 3)' }]);
  });

  it('encodes each case as one character per night, with its exact pass count', () => {
    const data = trendPageData(history(), 'L');
    expect(data.cases).toEqual([
      {
        id: 'support/x',
        suite: 'support',
        status: 'p.fp',
        passes: 'a.3a',
        samples: 10,
        failing_since: null,
        flips: 2,
        trend: null,
        // The detector restarted with the baseline accepted on night 2: it holds the case to 13/20.
        watch: { passes: 13, samples: 20, warmup: 100, since: null },
      },
    ]);
    expect(data.suites[0]!.passes).toEqual([10, null, 3, 10]);
    expect(data.suites[0]!.samples).toEqual([10, null, 10, 10]);
  });

  it("carries a tool case's counts by night and the suite's sums, and nothing for a case or suite without tools", () => {
    const h = history();
    const tools = (answered: number, triggered: number, valid: number) => ({ answered, triggered, valid });
    h.runs[0]!.cases.push(makeCase('call', { tools: tools(10, 10, 10) }));
    // Night 2: the tool case did not run; night 3: it ran in text only, then called again.
    h.runs[2]!.cases.push(
      makeCase('call', { tools: tools(10, 0, 0) }),
      makeCase('y', { tools: tools(1, 1, 0) }),
    );
    h.runs[3]!.cases.push(makeCase('call', { tools: tools(10, 9, 6) }));
    h.runs.push({
      ...makeRun(4, { suites: [{ suite: 'plain', models: [], providers: [], baseline_source_run: null }] }),
      cases: [makeCase('z', { suite: 'plain' })],
    });
    const data = trendPageData(h, 'L');
    const byId = new Map(data.cases.map((c) => [c.id, c]));
    expect(byId.get('support/call')!.tools).toEqual({ 0: [10, 10, 10], 2: [10, 0, 0], 3: [10, 9, 6] });
    expect(byId.get('support/y')!.tools).toEqual({ 2: [1, 1, 0] });
    expect(byId.get('support/x')).not.toHaveProperty('tools');
    expect(byId.get('plain/z')).not.toHaveProperty('tools');
    const [plain, support] = data.suites;
    expect(support!.tools).toEqual([[10, 10, 10], null, [11, 1, 0], [10, 9, 6], null]);
    expect(plain!.suite).toBe('plain');
    expect(plain).not.toHaveProperty('tools');
  });

  it('keeps counts one character cannot hold beside the string: another sample count, 64 passes and more', () => {
    const h = history();
    h.runs[2]!.cases = [makeCase('x', { status: 'fail', passes: 37, samples: 40 })];
    h.runs[3]!.cases = [makeCase('x', { passes: 70, samples: 70 })];
    const c = trendPageData(h, 'L').cases[0]!;
    expect([c.passes, c.samples, c.other]).toEqual(['a.~~', 10, { 2: [37, 40], 3: [70, 70] }]);
  });

  it.each([
    [
      ['2026-11-01T02:00:00.000Z', '2026-11-02T02:00:00.000Z'],
      ['2026-11-01', '2026-11-02'],
    ],
    [
      ['2026-11-01T02:00:00.000Z', '2026-11-02T02:00:00.000Z', '2026-11-02T09:30:00.000Z'],
      ['2026-11-01', '2026-11-02 02:00 UTC', '2026-11-02 09:30 UTC'],
    ],
    [
      ['2026-11-02T09:30:10.000Z', '2026-11-02T09:30:50.000Z'],
      ['2026-11-02 09:30 UTC · r0', '2026-11-02 09:30 UTC · r1'],
    ],
  ])('names nights %j apart as %j', (starts, labels) => {
    expect(nightLabels(starts.map((started_at, i) => ({ run_id: `r${i}`, started_at })))).toEqual(labels);
  });

  it.each([
    [
      ['2026-11-01T02:00:00.000Z', '2026-11-02T02:00:00.000Z'],
      ['2026-11-01', '2026-11-02'],
    ],
    [
      ['2026-11-01T02:00:00.000Z', '2026-11-02T02:00:00.000Z', '2026-11-02T09:30:00.000Z'],
      ['11-01', '11-02 02:00', '11-02 09:30'],
    ],
    [
      ['2026-11-28T06:37:10.000Z', '2026-11-28T06:37:50.000Z', '2026-11-28T07:01:00.000Z'],
      ['06:37:10', '06:37:50', '07:01'],
    ],
    [['2026-11-28T06:37:10.000Z'], ['2026-11-28']],
  ])('names nights %j on an axis as %j', (starts, labels) => {
    expect(axisLabels(starts.map((started_at) => ({ started_at })))).toEqual(labels);
  });
});

describe('renderTrendPage', () => {
  it('allows exactly its own script and style, and escapes the title', () => {
    const html = renderTrendPage(history(), { title: 'nightly <b>' });
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/
      .exec(html)![1]!
      .replaceAll('&#39;', "'");
    expect(csp).toContain(`script-src ${sha(script)}`);
    expect(csp).toContain(`style-src ${sha(style)}`);
    expect(html).toContain('<title>nightly &lt;b&gt;</title>');
    // No URL to load anything from; the SVG namespace is a name, not a fetch.
    expect(html.replaceAll('http://www.w3.org/2000/svg', '')).not.toMatch(/https?:\/\//);
  });

  it('renders an empty history', () => {
    const html = renderTrendPage({ runs: [], baselines: [], problems: [] });
    expect(html).toContain('0 nights (– → –) · 0 cases · 0 suites');
  });
});
