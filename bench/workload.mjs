// Generated benchmark inputs: suites, a config pointing at the simulator, and the exact
// request bodies driftcheck will send (so the raw undici client sends the same bytes).
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import process from 'node:process';
import { MAX_SUITE_SAMPLES } from '../dist/suite/repeat-limits.js';

export const MODEL = 'openai/gpt-4o-mini';
const MAX_TOKENS = 512;
/** Cases per suite file: large enough to be realistic, small enough that no file is huge. */
const CASES_PER_SUITE = 1000;

/** Random keys of each platform's shape, generated per run (never a literal in the repo). */
export function benchKeys() {
  const base62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let direct = 'sk-';
  for (const byte of randomBytes(48)) direct += base62[byte % base62.length];
  return { router: `sk-or-v1-${randomBytes(32).toString('hex')}`, direct };
}

/** The env a benchmark child runs with: PATH, no colour, and the two keys. */
export function benchEnv(keys) {
  return {
    PATH: process.env.PATH,
    NO_COLOR: '1',
    BENCH_ROUTER_KEY: keys.router,
    BENCH_DIRECT_KEY: keys.direct,
  };
}

/** Suite id of the i-th suite (0-based) and the prompt/expectation of case n (1-based). */
const suiteId = (i) => `bench-${String(i + 1).padStart(4, '0')}`;
const prompt = (n) => `Say exactly: case ${n}`;

/**
 * Writes `count` cases into `dir/suites/*.yaml` (≤ CASES_PER_SUITE per file), the config
 * `dir/driftcheck.config.yaml`, and `dir/requests.jsonl` (one `{key, body}` per sample,
 * in plan order). With `failing`, that many cases, spread evenly, expect a text the
 * simulator never says (a failing check). With `stream`, the request bodies are those of
 * `run --stream` (`"stream": true` last, as the router adapter adds it). Returns the paths.
 */
export async function writeWorkload(dir, count, simUrl, { failing = 0, stream = false } = {}) {
  const every = failing > 0 ? Math.floor(count / failing) : 0;
  const suitesDir = join(dir, 'suites');
  await mkdir(suitesDir, { recursive: true });
  const requests = [];
  for (let s = 0; s * CASES_PER_SUITE < count; s++) {
    const id = suiteId(s);
    const lines = [`suite: ${id}`, 'service: router', `model: ${MODEL}`, 'cases:'];
    const last = Math.min(count, (s + 1) * CASES_PER_SUITE);
    for (let n = s * CASES_PER_SUITE + 1; n <= last; n++) {
      lines.push(
        `  - id: case-${n}`,
        `    prompt: "${prompt(n)}"`,
        '    expect:',
        every > 0 && n % every === 0 && n / every <= failing
          ? '      - contains: "never said"'
          : `      - contains: "case ${n}"`,
      );
      const body = { model: MODEL, messages: [{ role: 'user', content: prompt(n) }], max_tokens: MAX_TOKENS };
      if (stream) body.stream = true;
      requests.push(JSON.stringify({ key: `${id}/case-${n}#0`, body: JSON.stringify(body) }));
    }
    await writeFile(join(suitesDir, `${id}.yaml`), `${lines.join('\n')}\n`);
  }
  const config = join(dir, 'driftcheck.config.yaml');
  await writeFile(config, configText(simUrl));
  const requestsFile = join(dir, 'requests.jsonl');
  await writeFile(requestsFile, `${requests.join('\n')}\n`);
  return { suitesDir, config, requestsFile };
}

/**
 * The same `count` cases as writeWorkload, as one suite whose cases come from one JSONL
 * table (`dir/suites/bench-table.yaml` and `dir/suites/cases.jsonl`): the shape a suite
 * generated from data has. A suite plans at most MAX_SUITE_SAMPLES (100,000) samples, so
 * past that each further 100,000 rows are one more such suite (`bench-table-2.yaml` over
 * `cases-2.jsonl`, …). Returns the same paths (no request file: no raw client runs it).
 */
export async function writeTableWorkload(dir, count, simUrl) {
  const suitesDir = join(dir, 'suites');
  await mkdir(suitesDir, { recursive: true });
  for (let first = 1, part = 1; first <= count; first += MAX_SUITE_SAMPLES, part++) {
    const suffix = part === 1 ? '' : `-${part}`;
    const suite = [
      `suite: bench-table${suffix}`,
      'service: router',
      `model: ${MODEL}`,
      'tables:',
      `  - path: cases${suffix}.jsonl`,
      '    case:',
      '      id: "case-{{n}}"',
      '      prompt: "{{prompt}}"',
      '      expect:',
      '        - contains: "case {{n}}"',
    ];
    await writeFile(join(suitesDir, `bench-table${suffix}.yaml`), `${suite.join('\n')}\n`);
    const rows = [];
    for (let n = first; n <= Math.min(count, first + MAX_SUITE_SAMPLES - 1); n++)
      rows.push(JSON.stringify({ n, prompt: prompt(n) }));
    await writeFile(join(suitesDir, `cases${suffix}.jsonl`), `${rows.join('\n')}\n`);
  }
  const config = join(dir, 'driftcheck.config.yaml');
  await writeFile(config, configText(simUrl));
  return { suitesDir, config };
}

/** Both services on the simulator; keys come from the env at run time. */
function configText(simUrl) {
  return [
    'services:',
    '  router:',
    '    kind: router',
    `    base_url: ${simUrl}/api/v1`,
    '    api_key_env: BENCH_ROUTER_KEY',
    `    max_tokens: ${MAX_TOKENS}`,
    '    timeout_s: 60',
    '    retries: 0',
    '    concurrency: 16',
    '  direct:',
    '    kind: direct',
    `    base_url: ${simUrl}/v1`,
    '    api_key_env: BENCH_DIRECT_KEY',
    '    max_tokens: 1024',
    '    timeout_s: 60',
    '    retries: 0',
    '    concurrency: 16',
    '',
  ].join('\n');
}
