import { relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { acceptChanges, acceptRefusals, acceptReport, assertAcceptable } from '../baseline/accept.js';
import { PREVIEW_LISTED, previewAccept, type SuitePreview } from '../baseline/accept-preview.js';
import { countOf } from '../util/numbers.js';
import type { CaseEntry } from '../stored/report/types.js';
import { baselinePath } from '../stored/baseline/store.js';
import { UsageError } from '../util/errors.js';
import { openReport } from '../stored/report/read.js';
import type { CliIO } from './io.js';
import { unknownSubcommand } from './help.js';
import { projectPaths } from './project.js';

/**
 * `driftcheck baseline accept RUN_DIR [--case ID…] [--force]`: promote a run's results to
 * baselines/. A candidate, simulator or lone shard run is refused (exit 2, with what it would
 * change) unless `--force`.
 */
export async function baselineCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      case: { type: 'string', multiple: true },
      'baseline-dir': { type: 'string' },
      history: { type: 'string' },
      config: { type: 'string' },
      force: { type: 'boolean' },
      'dry-run': { type: 'boolean' },
    },
    allowPositionals: true,
    strict: true,
  });
  const [action, runDir, ...extra] = positionals;
  const usage =
    'usage: driftcheck baseline accept RUN_DIR [--case ID…]  (RUN_DIR is a folder under reports/, or reports/latest)';
  if (action !== undefined && action !== 'accept')
    throw unknownSubcommand('baseline', action, ['accept'], usage);
  if (action !== 'accept' || !runDir || extra.length) throw new UsageError(usage);
  const report = await openReport(resolve(io.cwd, runDir));
  const run = report.head.run;
  // A recheck is refused before anything else, --force or not: forcing cannot make it answers.
  assertAcceptable(report.head);
  if (run.status !== 'completed')
    io.stderr(`note: run ${run.id} is ${run.status}; only the cases it finished are accepted\n`);
  const wanted = (values.case ?? [])
    .flatMap((c) => c.split(','))
    .map((c) => c.trim())
    .filter(Boolean);
  let selection: Map<string, string[]> | undefined;
  if (wanted.length) {
    selection = new Map();
    const matched = new Set<string>();
    for await (const c of report.cases()) {
      for (const w of wanted) {
        if (w !== c.case && w !== c.id) continue;
        matched.add(w);
        const ids = selection.get(c.suite) ?? [];
        if (!ids.includes(c.case)) ids.push(c.case);
        selection.set(c.suite, ids);
      }
    }
    const missing = wanted.filter((w) => !matched.has(w));
    if (missing.length)
      throw new UsageError(
        `--case: no case ${missing.map((m) => `'${m}'`).join(', ')} in run ${run.id} (use a case id or suite/case)`,
      );
  }
  const paths = projectPaths(io, values.config);
  const baselineDir = paths.dir(values['baseline-dir'], 'baselines');
  // A candidate, simulator or shard run is not tonight's answers of the suites' models: never silently.
  const refused = acceptRefusals(report.head);
  // Cases accepted although they fail: they become what later runs are compared with.
  const failing = failingCases();
  if (values['dry-run']) {
    const previews = await previewAccept(baselineDir, report, selection, failing.add);
    io.stdout(previewText(previews, (file) => relative(io.cwd, file)));
    if (refused.length && !values.force)
      io.stdout(`accepting run ${run.id} needs --force: it is ${refused.join(', ')}\n`);
    if (failing.count) io.stdout(failing.text('would accept'));
    io.stdout(`dry run: nothing written\n`);
    return 0;
  }
  if (refused.length && !values.force) {
    const changes = await acceptChanges(baselineDir, report.head, selection);
    throw new UsageError(
      `run ${run.id} is ${refused.join(', ')}; accepting it would change:\n${changes.map((c) => `  ${c}`).join('\n')}\n  → accept a nightly run of the suites' own models, or pass --force (the baselines then record what the run was)`,
    );
  }
  if (refused.length) io.stderr(`note: run ${run.id} is ${refused.join(', ')}; accepted with --force\n`);
  const written = await acceptReport(baselineDir, report, selection, {
    forced: refused.length > 0,
    onAccepted: failing.add,
  });
  for (const file of written) io.stdout(`baseline written: ${relative(io.cwd, file)}\n`);
  if (failing.count) io.stderr(`warning: ${failing.text('accepted')}`);
  if (!written.length) io.stdout('nothing to accept: the run has no finished cases\n');
  // The nightly history notes the acceptance: its slow-drift detector starts over for these suites.
  // The config is read only when no --history says where.
  const config =
    values.history === undefined
      ? await (await import('../config/load.js')).loadConfig(values.config, io.env, io.cwd)
      : null;
  const historyDir = paths.history(values.history, config);
  if (historyDir && written.length) {
    const { appendBaselineAccepted } = await import('../stored/history/store.js');
    const at = new Date().toISOString();
    const accepted = report.head.suites.filter((s) => written.includes(baselinePath(baselineDir, s.suite)));
    for (const { suite } of accepted)
      await appendBaselineAccepted(
        historyDir,
        { suite, source_run: run.id, at },
        { onStaleLock: (note) => io.stderr(`history: ${note}\n`) },
      );
    io.stdout(`history: baseline acceptance noted in ${relative(io.cwd, historyDir) || '.'}\n`);
  }
  return 0;
}

/** The failing (or erroring) cases a baseline takes, the first few by id, and the sentence that lists them. */
function failingCases() {
  const listed: string[] = [];
  let count = 0;
  return {
    add: (c: CaseEntry) => {
      if (c.status !== 'fail' && c.status !== 'error') return;
      if (count++ < PREVIEW_LISTED) listed.push(`${c.id} (${c.status})`);
    },
    get count() {
      return count;
    },
    text: (verb: string) =>
      `${verb} ${countOf(count, 'failing case')} as the baseline (a later run that fails them the same way does not regress): ${listed.join(', ')}${count > listed.length ? `, … and ${count - listed.length} more` : ''}\n`,
  };
}

/** `baseline accept --dry-run`: per suite, what accepting would add, change, leave and keep. */
function previewText(previews: readonly SuitePreview[], shown: (file: string) => string): string {
  if (previews.length === 0) return 'nothing to accept: the run has no finished cases\n';
  const more = (count: number, listed: number) => (count > listed ? [`… and ${count - listed} more`] : []);
  return previews
    .map((p) => {
      const model =
        p.model.from === null
          ? `new baseline, model ${p.model.to}`
          : p.model.from === p.model.to
            ? `model ${p.model.to} (unchanged)`
            : `model ${p.model.from} → ${p.model.to}`;
      const counts = [
        `${p.added.count} added`,
        `${p.changed.count} changed`,
        `${p.same} the same`,
        ...(p.kept ? [`${p.kept} kept (in the baseline, not in this run)`] : []),
      ];
      const changed = p.changed.cases.map(
        (c) =>
          `${c.id} (${[c.status ? `status ${c.status}` : '', c.fields.join(', ')].filter(Boolean).join('; ')})`,
      );
      return [
        `suite ${p.suite} (${shown(p.file)}): ${model}; ${counts.join(', ')}`,
        ...(p.added.count
          ? [`  added: ${[...p.added.ids, ...more(p.added.count, p.added.ids.length)].join(', ')}`]
          : []),
        ...(p.changed.count
          ? [`  changed: ${[...changed, ...more(p.changed.count, changed.length)].join(', ')}`]
          : []),
      ].join('\n');
    })
    .map((text) => `${text}\n`)
    .join('');
}
