// The nightly history at scale: a synthetic year (365 nights × 1,000 cases by default) is
// appended through the real store, read back, rendered as the trend page, and opened in
// headless Chromium (Debian's /usr/bin/chromium, as in the tests). Prints store size, the
// page's size, `driftcheck history --out`'s wall time and peak RSS, and time to interactive. Needs `npm run build` first. Seeded: the history
// is the same on every run (the timings are this machine's).
// Usage: node bench/history.mjs [--nights 365] [--cases 1000] [--keep DIR]
/* global performance, document -- the page functions run in Chromium */
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { appendRun } from '../dist/stored/history/store.js';
import { measureNode } from './process.mjs';
import { createRng } from '../dist/stats/random.js';

const { values } = parseArgs({
  options: {
    nights: { type: 'string', default: '365' },
    cases: { type: 'string', default: '1000' },
    keep: { type: 'string' },
    chromium: { type: 'string', default: '/usr/bin/chromium' },
  },
});
const NIGHTS = Number(values.nights);
const CASES = Number(values.cases);
const SAMPLES = 10;
const random = createRng(0x415);
const dir = values.keep ? resolve(values.keep) : await mkdtemp(join(tmpdir(), 'driftcheck-history-bench-'));
const BIN = fileURLToPath(new URL('../bin/driftcheck.js', import.meta.url));

// Ten suites; most cases steady between 80 and 100 %, a few drop slowly, a few flap.
const cases = Array.from({ length: CASES }, (_, i) => ({
  suite: `suite-${String(i % 10).padStart(2, '0')}`,
  case: `case-${String(i).padStart(4, '0')}-${['refund-window', 'tone-check', 'json-extract', 'greeting'][i % 4]}`,
  rate: i % 50 === 7 ? 0.95 : 0.8 + 0.2 * random(),
  dropAt: i % 50 === 7 ? Math.floor(NIGHTS * 0.6) : null,
}));
const binomial = (p) => {
  let x = 0;
  for (let i = 0; i < SAMPLES; i++) if (random() < p) x++;
  return x;
};

let started = performance.now();
for (let night = 0; night < NIGHTS; night++) {
  const at = new Date(Date.UTC(2026, 0, 1, 2) + night * 86_400_000);
  const id = `${at.toISOString().replace(/[-:.]/g, '')}-${(night & 0xffff).toString(16).padStart(4, '0')}`;
  const providers = night < NIGHTS / 2 ? ['Acme'] : ['Acme', 'Beta'];
  const suites = [...new Set(cases.map((c) => c.suite))].map((suite) => ({
    suite,
    models: [night < NIGHTS / 3 ? 'acme/chat-1' : 'acme/chat-2'],
    providers,
    baseline_source_run: 'baseline-0',
  }));
  const entries = cases.map((c) => {
    const p = c.dropAt !== null && night >= c.dropAt ? 0.85 : c.rate;
    const passes = binomial(p);
    const prompt = 900 + Math.floor(600 * random());
    const completion = 200 + Math.floor(300 * random());
    return {
      suite: c.suite,
      case: c.case,
      status: passes === SAMPLES ? 'pass' : 'fail',
      samples: SAMPLES,
      passes,
      error_kinds: [],
      drift_kinds: passes < SAMPLES ? ['regressed'] : [],
      model: suites[0].models[0],
      provider: 'Acme',
      tokens: {
        prompt: prompt * SAMPLES,
        completion: completion * SAMPLES,
        total: (prompt + completion) * SAMPLES,
      },
      cost: Number(((prompt * 0.15 + completion * 0.6) * SAMPLES * 1e-6).toFixed(6)),
      latency_p50_ms: 600 + Math.floor(400 * random()),
      latency_p95_ms: 1400 + Math.floor(900 * random()),
    };
  });
  await appendRun(
    dir,
    {
      run_id: id,
      started_at: at.toISOString(),
      finished_at: at.toISOString(),
      exit_code: 1,
      status: 'completed',
      suites,
    },
    entries,
  );
}
const appendMs = performance.now() - started;
let bytes = 0;
for (const name of await readdir(dir)) bytes += (await stat(join(dir, name))).size;

// The trend page as a user makes it: `driftcheck history DIR --out FILE` as a whole process,
// its wall time and peak RSS (it reads the history as columns: HistoryNights).
const page = join(dir, 'trend.html');
const made = await measureNode([BIN, 'history', dir, '--out', page], {
  cwd: dir,
  env: process.env,
  tmp: dir,
});
if (made.code !== 0) throw new Error(`driftcheck history failed (exit ${made.code}):\n${made.stderr}`);
const htmlBytes = (await stat(page)).size;

const browser = await chromium.launch({
  executablePath: values.chromium,
  args: ['--headless', '--no-sandbox'],
});
let timing;
try {
  const tab = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await tab.goto(pathToFileURL(page).href);
  await tab.waitForFunction(() => document.documentElement.dataset.ready === 'true', null, {
    timeout: 300_000,
  });
  timing = await tab.evaluate(() => {
    const at = (name) => performance.getEntriesByName(name)[0].startTime;
    return { ready: at('driftcheck:ready'), script: at('driftcheck:ready') - at('driftcheck:start') };
  });
} finally {
  await browser.close();
}
const caseNights = NIGHTS * CASES;
console.log(`history: ${NIGHTS} nights × ${CASES} cases = ${caseNights.toLocaleString('en')} case-nights`);
console.log(
  `  store: ${(bytes / 1e6).toFixed(1)} MB (${(((bytes / caseNights) * 1000) / 1024).toFixed(1)} KiB per 1,000 case-nights); appended in ${(appendMs / 1000).toFixed(1)} s`,
);
console.log(
  `  trend page: ${(htmlBytes / 1e6).toFixed(2)} MB; driftcheck history --out: ${(made.wallMs / 1000).toFixed(1)} s, peak RSS ${made.peakRssMb?.toFixed(0)} MB`,
);
console.log(
  `  Chromium: interactive ${timing.ready.toFixed(0)} ms after navigation start (page script ${timing.script.toFixed(0)} ms)`,
);
if (!values.keep) await rm(dir, { recursive: true, force: true });
