import { existsSync } from 'node:fs';
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError } from '../util/errors.js';
import { READ_LIMITS, readBoundedText } from '../util/bounded-read.js';
import type { CliIO } from './io.js';

const CONFIG = `# yaml-language-server: $schema=./node_modules/driftcheck/schemas/config.schema.json
#
# driftcheck configuration. Keys never go in this file: name the environment variable
# that holds each key (api_key_env); driftcheck reads it at run time, sends it only to
# that service's base_url, and never writes it anywhere.
# \`driftcheck run --sim\` ignores base_url and keys and talks to the embedded simulator.
services:
  router:                                   # a routing service (OpenRouter-style)
    kind: router
    base_url: https://openrouter.ai/api/v1
    api_key_env: OPENROUTER_API_KEY
  direct:                                   # a direct model service (OpenAI-compatible)
    kind: direct
    base_url: \${DIRECT_BASE_URL}            # e.g. https://api.openai.com/v1
    api_key_env: DIRECT_API_KEY

# history: { dir: .driftcheck/history }     # keep every night: trends, "since when", slow drift
# max_cost: 2.00                            # USD a run may spend, judges included (run --max-cost overrides)
`;

const SUITE = `# yaml-language-server: $schema=../node_modules/driftcheck/schemas/suite.schema.json
suite: example
service: router
model: openai/gpt-4o-mini          # a concrete model id: never a ~latest alias, it can move
params: { temperature: 0, max_tokens: 256 }
system: You are a support agent for ACME. Refunds are accepted within 30 days.
cases:
  - id: refund-window
    prompt: What is the refund window?
    expect:
      - contains: 30 days
      - finish_reason: stop
`;

const WORKFLOW = `# driftcheck nightly: see the driftcheck README ("Nightly in CI") for the sharded version.
name: driftcheck
on:
  schedule: [{ cron: '17 3 * * *' }]
  workflow_dispatch: {}
permissions: { contents: read }
concurrency: { group: driftcheck-nightly, cancel-in-progress: false }
jobs:
  driftcheck:
    runs-on: ubuntu-latest
    timeout-minutes: 60
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with: { node-version: 20, cache: npm }
      - run: npm ci
      - run: npx driftcheck run suites/
        env:
          OPENROUTER_API_KEY: \${{ secrets.OPENROUTER_API_KEY }}
          DIRECT_API_KEY: \${{ secrets.DIRECT_API_KEY }}
          DIRECT_BASE_URL: \${{ vars.DIRECT_BASE_URL }}
      - uses: actions/upload-artifact@v4
        if: always()
        with: { name: driftcheck-report, path: reports/ }
`;

const CONFIG_FILE = 'driftcheck.config.yaml';
const WORKFLOW_FILE = '.github/workflows/driftcheck.yml';

/**
 * \`driftcheck init [--workflow] [--force]\`: a commented config, one example suite (with its
 * schema line for editors), \`reports/\` in .gitignore, and with --workflow a GitHub workflow.
 * In a project that already has a config, --workflow adds only the workflow: the user's
 * config, suites and .gitignore are theirs. Never overwrites a file without --force (and
 * --force then overwrites only what this call writes). \`driftcheck run --sim\` works right after.
 */
export async function initCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { workflow: { type: 'boolean' }, force: { type: 'boolean' } },
    allowPositionals: true,
    strict: true,
  });
  const root = positionals[0] ? resolve(io.cwd, positionals[0]) : io.cwd;
  const workflowOnly = Boolean(values.workflow) && existsSync(join(root, CONFIG_FILE));
  const files: [string, string][] = [
    ...(workflowOnly
      ? []
      : ([
          [CONFIG_FILE, CONFIG],
          ['suites/example.yaml', SUITE],
        ] as [string, string][])),
    ...(values.workflow ? ([[WORKFLOW_FILE, WORKFLOW]] as [string, string][]) : []),
  ];
  const existing = files.filter(([file]) => existsSync(join(root, file))).map(([file]) => file);
  if (existing.length && !values.force)
    throw new UsageError(
      `${existing.join(', ')} already exist${existing.length === 1 ? 's' : ''}\n  → keep ${existing.length === 1 ? 'it' : 'them'}, or pass --force to overwrite`,
    );
  for (const [file, text] of files) {
    await mkdir(dirname(join(root, file)), { recursive: true });
    await writeFile(join(root, file), text);
    io.stdout(`wrote ${relative(io.cwd, join(root, file))}\n`);
  }
  if (workflowOnly) {
    io.stdout(`kept ${relative(io.cwd, join(root, CONFIG_FILE))} and your suites as they are\n`);
    io.stdout(
      `next: add the secrets the workflow reads (OPENROUTER_API_KEY, DIRECT_API_KEY) to the repository\n`,
    );
    return 0;
  }
  const ignore = join(root, '.gitignore');
  const current = existsSync(ignore) ? await readBoundedText(ignore, READ_LIMITS.text) : '';
  if (!/^\/?reports\/?$/m.test(current)) {
    await appendFile(
      ignore,
      `${current === '' || current.endsWith('\n') ? '' : '\n'}# driftcheck run folders (keep baselines/)\nreports/\n`,
    );
    io.stdout(`added reports/ to ${relative(io.cwd, ignore)}\n`);
  }
  // The commands find the config from the folder they run in: a project made elsewhere is entered first.
  const folder = relative(io.cwd, root);
  const enter = folder === '' ? [] : [`cd ${/^[\w./-]+$/.test(folder) ? folder : JSON.stringify(folder)}`];
  const steps: [string, string][] = [
    ...enter.map((cd): [string, string] => [cd, "the new project's folder"]),
    ['driftcheck run --sim', 'the embedded simulator: no keys needed'],
    ['export OPENROUTER_API_KEY=…', 'then, against the real router:'],
    ['driftcheck verify --service router', 'one minimal call'],
    ['driftcheck run --update-baselines', 'record the baselines; review and commit baselines/'],
  ];
  const lines = steps.map(
    ([command, why], i) => `${i === 0 ? 'next: ' : '      '}${command.padEnd(41)} # ${why}`,
  );
  io.stdout(`${lines.join('\n')}\n`);
  return 0;
}
