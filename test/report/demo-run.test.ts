import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulateServices } from '../../src/cli/sim-setup.js';
import { defaultConfig } from '../../src/config/defaults.js';
import { renderHtml } from '../../src/report/html/index.js';
import { renderJunit } from '../../src/report/junit.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { runSuites } from '../../src/cli/run-suites.js';
import { simRequestHeaders } from '../../src/sim/protocol.js';
import { loadSuites } from '../../src/suite/load.js';
import { loadReport } from '../../src/stored/report/read.js';
import type { Report } from '../../src/stored/report/types.js';
import { REPO } from '../helpers/cli.js';
import { findAll, parseXml } from './xml.js';

// The demo suites against the committed baselines on the embedded simulator: a real report
// with a regression, a truncation, an error in an HTTP 200 body and an empty choices array.
describe('reporters on a real demo run', () => {
  let report: Report;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'driftcheck-reporters-'));
    const suites = await loadSuites([join(REPO, 'suites/demo')], { cwd: REPO });
    const sim = await simulateServices(defaultConfig({}), {});
    try {
      const result = await runSuites({
        config: sim.config,
        suites,
        env: sim.env,
        reportDir: dir,
        baselineDir: join(REPO, 'baselines'),
        version: 'test',
        reporters: new Set(),
        requestHeaders: simRequestHeaders,
        meta: {
          command: ['driftcheck', 'run', '--sim'],
          paths: ['suites/demo'],
          config_file: null,
          allow_alias: false,
          sim: true,
          plan: {},
          concurrency: null,
          update_baselines: false,
        },
      });
      // The head comes back; the cases are in report.json, written as the suites were folded.
      report = await loadReport(result.runDir);
    } finally {
      await sim.simulator.close();
    }
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('JUnit: one testcase per case, failures and errors where the report has them', () => {
    const root = parseXml(renderJunit(report));
    const testcases = findAll(root, 'testcase');
    expect(testcases).toHaveLength(report.cases.length);
    expect(
      findAll(root, 'testsuite')
        .map((s) => s.attrs.name)
        .sort(),
    ).toEqual(report.suites.map((s) => s.suite).sort());
    const errored = report.cases.filter((c) => c.status === 'error');
    expect(
      findAll(root, 'error')
        .map((e) => e.attrs.type)
        .sort(),
    ).toEqual(errored.map((c) => c.error!.kind).sort());
    expect(Number(root.attrs.failures) + Number(root.attrs.errors)).toBe(
      report.cases.filter((c) => c.status !== 'pass' && c.status !== 'not_run').length,
    );
  });

  it('Markdown: every regression is listed before anything else', () => {
    const md = renderMarkdown(report);
    const regressed = report.cases.filter((c) => c.drift.some((d) => d.severity === 'fail'));
    expect(regressed.length).toBeGreaterThan(0);
    const start = md.indexOf('### Regressions');
    const next = md.indexOf('\n### ', start + 1);
    expect(start).toBeGreaterThan(0);
    expect(md.indexOf('\n### ')).toBe(start - 1); // the first section
    const section = md.slice(start, next === -1 ? undefined : next);
    for (const c of regressed) expect(section).toContain(`\`${c.suite}/${c.case}\``);
  });

  it('HTML: embeds every case once', () => {
    const html = renderHtml(report);
    const json = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html)![1]!;
    const ids = (JSON.parse(json) as { cases: { id: string }[] }).cases.map((c) => c.id).sort();
    expect(ids).toEqual(report.cases.map((c) => c.id).sort());
  });
});
