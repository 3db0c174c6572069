import { UsageError } from '../util/errors.js';
import { didYouMean } from '../util/did-you-mean.js';
import { REPORTER_NAMES } from '../report/outputs.js';

/** The reporters `--reporter` takes, as the help lists them: the registry's names. */
const REPORTERS_LISTED = REPORTER_NAMES.join(',');
/**
 * `driftcheck <command> --help`: what each command does, its options and examples. The
 * option lists are also what an unknown flag is matched against for a did-you-mean.
 */
export const COMMAND_HELP: Record<string, string> = {
  run: `Usage: driftcheck run [paths…] [options]

Runs suites (files or folders; default suites/) against their services and diffs every
case against its baseline. Exit 0 only when every planned case ran with no failure and
no regression (see the exit-code table in the README).

Options:
  --config FILE          config file (default driftcheck.config.yaml when present)
  --sim                  use the embedded simulator: no network, no keys
  --service NAME         send every suite to this service
  --model ID             candidate model: run the suites of its service with it, diffed
                         against the current baseline (other suites are skipped and listed)
  --models A,B,…         several candidates, one run each, compared side by side
                         (reports/compare-…/compare.html, .json, .md)
  --providers a,b,…      router providers as candidates: each runs the router suites pinned
                         to it (only: [x], allow_fallbacks: false), compared side by side
  --reference RUN_DIR    compare the --models/--providers candidates with this stored run
                         instead of the current baseline
  --repeat N|auto        samples per case (auto: 10 to 40, only while the verdict is uncertain)
  --stream               ask for every answer as a stream (params.stream: true for every case)
  --concurrency N        requests in flight per service
  --filter GLOB          only cases whose suite/case, case id or suite name matches
  --shard I/N|auto       run the I-th of N stable slices of all cases (auto: from CI variables)
  --resume [RUN_DIR]     continue a paused or interrupted run: RUN_DIR, else the newest one of the
                         suites given ('run suites --resume'), else the newest one
  --failed RUN_DIR       a new run of only the cases that failed, errored or regressed in RUN_DIR
                         (its suites, candidate and --sim, unless given here)
  --update-baselines     write baselines/ from this run when it completes
  --require-baselines    refuse to run a suite that has no baseline yet
  --report-dir DIR       where run folders go (default reports/)
  --baseline-dir DIR     where baselines live (default baselines/)
  --reporter LIST        ${REPORTERS_LISTED} (default: all; report.json always)
  --history DIR          read earlier nights from this history folder and append tonight
                         (only a nightly, complete run of the real services is appended)
  --history-force        append tonight even when it is a candidate, simulator, shard or
                         filtered run (the history marks it as forced)
  --allow-alias          run suites that name a ~author/family-latest alias
  --max-cost USD         the most the run may spend, judge calls included (max_cost in the
                         config): an estimate over it refuses the run (exit 2, nothing sent);
                         spent cost reaching it pauses the run (exit 3; --resume continues,
                         what was spent counting, unless given a new --max-cost)
  --ignore-estimate      run although the estimate exceeds --max-cost (the cap still pauses it)
  --json                 print the run's summary as one JSON document on stdout (report.json's
                         run and summary, the run folder and report files; schema:
                         schemas/run-output.schema.json); the console summary goes to stderr
  --bail N               stop sending after N cases failed or errored (exit 1): what is in flight
                         finishes, the rest is not run, and the summary says so

Examples:
  driftcheck run --sim suites/demo
  driftcheck run suites/ --repeat auto --history .driftcheck/history
  driftcheck run --model anthropic/claude-sonnet-4.5        # a candidate against the baseline
  driftcheck run --providers deepinfra,groq suites/demo/tools.yaml # a model's providers side by side
  driftcheck run suites/ --shard 2/4 --report-dir shards
  driftcheck run --failed reports/latest                    # only what failed last time
  driftcheck run --sim suites/demo --bail 3 --json          # stop after 3 failures; JSON on stdout
  driftcheck run --models openai/gpt-4o,anthropic/claude-sonnet-4.5 --max-cost 2
`,
  verify: `Usage: driftcheck verify [--service NAME] [--model ID] [--config FILE] [--sim] [--stream]

One minimal request per service (60 s time-out, no retry, max_tokens 512 router /
1024 direct, sent as the service's max_tokens_param names it): prints the concrete model,
finish_reason, usage and a classified verdict.

Options:
  --service NAME         only this service
  --model ID             the model to call (default: the service's verify_model; with --sim
                         one the simulator has; else the first the service's suites/ use)
  --config FILE          config file (default driftcheck.config.yaml when present)
  --sim                  use the embedded simulator: no network, no keys
  --stream               ask for the answer as a stream (stream: true, as run --stream sends
                         it): also prints when its first and last token came, its chunks and
                         tokens per second; a stream that breaks off or errs is the verdict

Examples:
  driftcheck verify
  driftcheck verify --service direct --model kimi-k2-turbo-preview
  driftcheck verify --sim --stream
`,
  validate: `Usage: driftcheck validate [paths…] [--config FILE] [--allow-alias]

Checks suites and the config against their schemas and rules without calling any
service; every problem names the file, line and column.

Examples:
  driftcheck validate
  driftcheck validate suites/demo/support.yaml
`,
  baseline: `Usage: driftcheck baseline accept RUN_DIR [--case ID…] [--dry-run] [--force] [--baseline-dir DIR] [--history DIR]

Promotes a run's results to baselines/ (all cases, or those named by id or suite/id).
With a history (--history or history: in the config) the acceptance is noted there.
A candidate run (--model), a simulator run (--sim) or one shard alone is refused (exit 2)
with what accepting it would change; --force accepts it, and the baseline records what
the run was (its "provenance"). A recheck (driftcheck recheck) is refused even forced.
Accepting failing or erroring cases warns, listing them: they become what later runs are
compared with.

Options:
  --case ID              only this case (id or suite/id; repeat it, or give a comma list)
  --dry-run              print what accepting would change, per suite (cases added, changed
                         and in what, the same, kept), and the failing cases it would take;
                         write nothing (any run, a refused one too: exit 0)
  --force                accept a candidate, simulator or lone shard run
  --baseline-dir DIR     where baselines live (default baselines/)
  --history DIR          note the acceptance in this history folder
  --config FILE          the project's config

Examples:
  driftcheck baseline accept reports/latest --dry-run
  driftcheck baseline accept reports/latest
  driftcheck baseline accept reports/20261122T050004Z-e9d8 --case refunds/refund-window
`,
  diff: `Usage: driftcheck diff RUN_A RUN_B [--reporter LIST] [--out DIR]

Compares two stored runs case by case, A's answers as the baseline of B: the same drift
rules and verdict as a run against baselines/. Without --out it prints the changes; with
--out every report is written there (or those --reporter names). Exit 1 when B regressed.

Examples:
  driftcheck diff reports/20261121T050000Z-aaaa reports/20261122T050000Z-bbbb
  driftcheck diff reports/A reports/B --out reports/diff-A-B
`,
  compare: `Usage: driftcheck compare RUN_DIR… [--reference RUN_DIR] [--out DIR] [--baseline-dir DIR]

Compares runs side by side: one row per case, one column per run, what changed against
the reference, and per run its pass rate (95% interval), regressions and fixes, tool-call
rates, error kinds, tokens, cost per 1,000 cases, latency p50/p95 and the providers that
served. Writes compare.html (self-contained: open it in a browser), compare.json (schema:
schemas/compare.schema.json) and compare.md (short enough for a pull-request comment).

The reference: --reference RUN_DIR; without it, candidate runs (run --model, --models,
--providers) are compared with the baseline each ran against, and other runs with the
first one given. Exit 0 when no run regressed against it and each ran every case; 1 when
one regressed, left cases unanswered or a provider could not serve; a run that stopped
(paused, interrupted, access) keeps its code; 2 for a folder that is not a readable run.

Options:
  --reference RUN_DIR    the run to compare with (default: see above)
  --out DIR              where the three files go (default: compare-<first>-<last> beside the runs)
  --baseline-dir DIR     the baselines a run without report.json (killed before it wrote it)
                         is folded against from its journal (default baselines/)

Examples:
  driftcheck compare reports/20261121T050000Z-aaaa reports/20261122T050000Z-bbbb
  driftcheck compare reports/A reports/B reports/C --reference reports/nightly
`,
  merge: `Usage: driftcheck merge RUN_DIR… --out DIR [--allow-partial] [--reporter LIST] [--baseline-dir DIR]

Folds the shards' journals into one report, re-diffed against baselines/: the verdict and
exit code of one unsharded run. A shard missing, or one given twice, is an error (exit 2)
unless --allow-partial.

Examples:
  driftcheck merge shards/*/2*/ --out merged
`,
  report: `Usage: driftcheck report RUN_DIR… [--out DIR] [--reporter LIST] [--baseline-dir DIR]

Re-renders every report of a run from its journal (results.jsonl) and the baselines: a
run killed before it wrote them, or an old run after an upgrade. Several folders are
folded into one report (as merge does) and need --out. A run stopped by a signal, or
killed (its journal has no end record), exits 1 when what was rendered fails, else 3.

Examples:
  driftcheck report reports/20261122T050004Z-e9d8
`,
  recheck: `Usage: driftcheck recheck RUN_DIR [paths…] [--reporter LIST] [--report-dir DIR] [--baseline-dir DIR]

Checks the answers a run stored in its journal again, with today's suites: their checks
and drift rules, against today's baselines. Sends nothing. Writes a new run folder marked
as a recheck of RUN_DIR, with every report, and exits by its verdict as a run does.
Today's suites are those the run was given (or the paths given here), selected as the run
selected them (its filter, shard, candidate). A judge check keeps the run's verdict when
the judge is unchanged; otherwise it is not evaluated and fails (it needs a call). Cases
with no stored answer (added since, or whose prompt or model changed) are not run, and
stored answers of cases no longer in the suites are dropped: both are listed, and a case
not run makes the exit non-zero. Baselines are never written from a recheck: baseline
accept refuses it, even when forced.

Options:
  --reporter LIST        ${REPORTERS_LISTED} (default: all; report.json always)
  --report-dir DIR       where the new run folder goes (default reports/)
  --baseline-dir DIR     the baselines to diff against (default baselines/)
  --allow-alias          load suites that name a ~author/family-latest alias
  --config FILE          the project's config (where reports/ and baselines/ are)

Examples:
  driftcheck recheck reports/latest                     # after editing a suite's checks
  driftcheck recheck reports/20261122T050004Z-e9d8 suites/demo/support.yaml
`,
  pin: `Usage: driftcheck pin SUITE… [--provider] [--dry-run] [--service NAME] [--config FILE] [--sim]

Replaces ~author/family-latest aliases with the concrete model they point at today,
keeping comments and layout. --provider also pins the provider that serves the model
today on a routing service (one minimal call per suite): it adds
params.provider: { only: [slug], allow_fallbacks: false }, unless the suite sets one.
--dry-run prints what it would change and writes nothing.

Examples:
  driftcheck pin suites/nightly.yaml --dry-run
  driftcheck pin suites/nightly.yaml --provider
`,
  sim: `Usage: driftcheck sim [--port N] [--latency-ms N] [--credit-after N] [--budget-after N]
                      [--alias-move-after N] [--echo-key] [--seed N]

Starts the embedded simulator of both services on loopback (router at /api/v1, direct
service at /v1). Suites and requests can ask it for any fault (see the README).

Examples:
  driftcheck sim --port 8787 --latency-ms 50
`,
  init: `Usage: driftcheck init [DIR] [--workflow] [--force]

Writes a commented driftcheck.config.yaml, suites/example.yaml (with its schema line for
editors), adds reports/ to .gitignore, and with --workflow a GitHub workflow. In a project
that already has a config, --workflow adds only the workflow. Never overwrites a file
without --force (which overwrites only what this call writes). Then: driftcheck run --sim.

Examples:
  driftcheck init
  driftcheck init --workflow        # in an existing project: only .github/workflows/driftcheck.yml
`,
  list: `Usage: driftcheck list [paths…] [--filter GLOB] [--shard I/N|auto] [--repeat N|auto] [--json] [--config FILE]

What a run would send, after filters, without sending anything: suites with their service
and model, the cases, and the samples planned. Exit 2 when nothing is selected.

Examples:
  driftcheck list --filter 'refunds/*'
  driftcheck list suites/ --shard 2/4 --json
`,
  history: `Usage: driftcheck history DIR --out FILE.html [--report-base PATH] [--link TEMPLATE] [--title TEXT]
       driftcheck history add DIR REPORT_DIR… [--force]

Renders the trend page of a history folder, or appends finished runs to it. A folder that
does not exist, or holds no month file, is an error (exit 2), not an empty page.

Options:
  DIR                    the history folder (JSON Lines, one file per month)
  --out FILE.html        write the trend page (self-contained; works from file:// and GitHub Pages)
  --report-base PATH     where each night's run folder is, relative to the page (default reports)
  --link TEMPLATE        link to a night's report; {run} {suite} {case} are filled in
                         (default <report-base>/{run}/report.html#{suite}/{case})
  --title TEXT           the page's title
  add                    append the runs of finished run folders (or report.json files) to DIR;
                         a candidate run, one shard alone or a filtered run is refused (exit 2)
  --force                (add) append it anyway: the trend page marks the night as forced

Examples:
  driftcheck history add .driftcheck/history reports/latest
  driftcheck history .driftcheck/history --out trends.html
`,
  open: `Usage: driftcheck open [--port N] [--no-open] [--report-dir DIR] [--config FILE]
       driftcheck view …  (the same)

Serves the reports folder on loopback (http://127.0.0.1, read-only: files inside the
folder only) and opens its index of runs in the browser: each run's verdict, date, counts
and suites with a link to its report.html, the comparisons' compare.html, and the other
pages there (a trend page written into reports/). The index is also written as
reports/index.html (as after each run), for CI artifacts and GitHub Pages. Without a
browser opener (xdg-open, open, start) the URL it prints is the way in. Runs until Ctrl-C.

Options:
  --port N               the port (default 0: any free one)
  --no-open              only print the URL; start no browser
  --report-dir DIR       the reports folder (default reports/)
  --config FILE          the project's config (where reports/ is)

Examples:
  driftcheck open
  driftcheck view --no-open --port 8080
`,
};
COMMAND_HELP.view = COMMAND_HELP.open!;

/** A command's `Options:` block, as its own --help prints it (the top-level help shows run's). */
export function optionsBlock(command: string): string {
  const text = COMMAND_HELP[command] ?? '';
  const start = text.indexOf('Options:\n');
  if (start < 0) return '';
  const end = text.indexOf('\n\n', start);
  return text.slice(start + 'Options:\n'.length, end < 0 ? undefined : end + 1);
}

/** The options a command's help lists (`--filter`, …): what an unknown flag is compared with. */
export function optionsOf(command: string): string[] {
  return [...new Set((COMMAND_HELP[command] ?? '').match(/--[a-z][a-z-]*/g) ?? [])];
}

/**
 * How a command's help shows an option that takes a value (`--concurrency N`) and what it is
 * for, or null for an option that takes none (or one the help does not list).
 */
export function optionUsage(command: string, flag: string): { usage: string; about: string | null } | null {
  const help = COMMAND_HELP[command] ?? '';
  // Flags are letters and dashes (the caller's pattern): nothing to escape.
  const line = new RegExp(`^ {2}(${flag} [^\\s-]\\S*) {2,}(.+)$`, 'm').exec(help);
  if (line) return { usage: line[1]!, about: line[2]!.trim() };
  // Or as its usage line shows it: `[--port N]`.
  const usage = new RegExp(`[[ ](${flag} [^\\s\\]-][^\\]\\s]*)`).exec(help);
  return usage ? { usage: usage[1]!, about: null } : null;
}

/**
 * The arguments with a negative number given to an option that takes a value joined to it
 * (`--concurrency -1` → `--concurrency=-1`), as Node's parser asks: its own parser would take
 * the number for an unknown option and say so in its words; joined, the option's own check
 * says what it takes (`--concurrency expects a whole number ≥ 1, got '-1'`).
 */
export function joinNegativeValues(command: string, args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return [...out, ...args.slice(i)];
    const next = args[i + 1];
    if (
      /^--[a-z][a-z-]*$/.test(arg) &&
      next !== undefined &&
      /^-\.?\d/.test(next) &&
      optionUsage(command, arg)
    ) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** A subcommand a command does not have (`baseline acept`), with a did-you-mean and the command's usage. */
export function unknownSubcommand(
  command: string,
  word: string,
  known: readonly string[],
  usage: string,
): UsageError {
  const guess = didYouMean(word, known);
  return new UsageError(
    `unknown subcommand '${word}' of ${command}${guess ? `\n  → did you mean 'driftcheck ${command} ${guess}'?` : ''}\n${usage}`,
  );
}

export { didYouMean } from '../util/did-you-mean.js';
