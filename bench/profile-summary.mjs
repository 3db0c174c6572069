// Summarises V8 profiles: self time by function + file from a .cpuprofile (node --cpu-prof),
// or self bytes by function + file from a .heapprofile (node --heap-prof).
// Usage: node bench/profile-summary.mjs FILE [--top 30] [--by function|file|package] [--inclusive] [--timeline MS] [--json]
import { readFileSync } from 'node:fs';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';
import { parseArgs } from 'node:util';

const REPO_URL = new URL('..', import.meta.url).href;

/** Where a frame comes from, shortened: `src/run/execute.ts`-style for ours, `undici/lib/…` for deps. */
export function shortFile(url) {
  if (!url) return '(native)';
  let file = url.startsWith(REPO_URL) ? url.slice(REPO_URL.length) : url;
  if (file.startsWith('file://')) file = fileURLToPath(file);
  const nm = file.lastIndexOf('node_modules/');
  if (nm >= 0) return file.slice(nm + 'node_modules/'.length);
  // A driftcheck tree elsewhere (bench --root): keep the part from its dist/ on.
  const dist = file.lastIndexOf('/dist/');
  return dist >= 0 ? file.slice(dist + 1) : file;
}

/** The group a frame is counted under for `--by`. */
function groupOf(frame, by) {
  const file = shortFile(frame.url);
  if (by === 'file') return file;
  if (by === 'package') {
    if (file.startsWith('dist/')) return `driftcheck:${file.split('/')[1] ?? ''}`;
    if (file.startsWith('node:')) return 'node:*';
    if (file.startsWith('(')) return file;
    return file.split('/')[0].startsWith('@') ? file.split('/').slice(0, 2).join('/') : file.split('/')[0];
  }
  const line = frame.lineNumber >= 0 ? `:${frame.lineNumber + 1}` : '';
  return `${frame.functionName || '(anonymous)'}  ${file}${line}`;
}

/**
 * Time (µs) per group from a .cpuprofile: sample counts × the mean sampling interval. Self
 * time counts the leaf frame only; inclusive time counts every group on the sample's stack
 * once (so recursion is not counted twice) — what a phase like loadSuites costs in all.
 */
export function cpuTime(profile, by, inclusive = false) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const hits = new Map();
  for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
  const totalUs = profile.endTime - profile.startTime;
  const perSample = totalUs / Math.max(1, profile.samples.length);
  const groups = new Map();
  for (const [id, count] of hits) {
    const keys = new Set();
    for (let at = id; at !== undefined; at = inclusive ? parent.get(at) : undefined) {
      keys.add(groupOf(byId.get(at).callFrame, by));
    }
    for (const key of keys) groups.set(key, (groups.get(key) ?? 0) + count * perSample);
  }
  return { totalUs, groups };
}

/**
 * The profile cut into `bucketMs` slices: per slice, the share of idle samples and the
 * driftcheck (dist/) functions most often on the stack — start-up vs sending vs report.
 */
export function cpuTimeline(profile, bucketMs) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const buckets = [];
  let t = 0;
  profile.samples.forEach((id, i) => {
    t += profile.timeDeltas[i];
    const b = (buckets[Math.floor(t / 1000 / bucketMs)] ??= { idle: 0, total: 0, ours: new Map() });
    b.total += 1;
    if (byId.get(id).callFrame.functionName === '(idle)') return void (b.idle += 1);
    const chain = [];
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at).callFrame;
      if (frame.url.includes('/dist/')) chain.push(frame.functionName || '(anonymous)');
    }
    const key = chain.slice(-2).reverse().join(' > ') || '(outside driftcheck)';
    b.ours.set(key, (b.ours.get(key) ?? 0) + 1);
  });
  // Array.from, not map: a bucket no sample fell in is a hole, which map would leave a hole.
  return Array.from(buckets, (b, i) => ({
    fromMs: i * bucketMs,
    idlePercent: b ? (100 * b.idle) / b.total : 100,
    top: b ? [...b.ours].sort((x, y) => y[1] - x[1]).slice(0, 3) : [],
  }));
}

/** Self bytes per group from a .heapprofile (sampled allocations still live at the end). */
export function heapSelf(profile, by) {
  const groups = new Map();
  let total = 0;
  const walk = (node) => {
    const key = groupOf(node.callFrame, by);
    groups.set(key, (groups.get(key) ?? 0) + node.selfSize);
    total += node.selfSize;
    for (const child of node.children ?? []) walk(child);
  };
  walk(profile.head);
  return { total, groups };
}

function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      top: { type: 'string', default: '30' },
      by: { type: 'string', default: 'function' },
      json: { type: 'boolean', default: false },
      inclusive: { type: 'boolean', default: false },
      timeline: { type: 'string' },
    },
  });
  const file = positionals[0];
  if (!file)
    throw new Error('usage: node bench/profile-summary.mjs FILE [--top N] [--by function|file|package]');
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const heap = Boolean(profile.head);
  if (values.timeline && !heap) {
    for (const slice of cpuTimeline(profile, Number(values.timeline))) {
      const top = slice.top.map(([name, n]) => `${name} (${n})`).join(', ');
      process.stdout.write(
        `${String(slice.fromMs).padStart(7)} ms  idle ${slice.idlePercent.toFixed(0).padStart(3)}%  ${top}\n`,
      );
    }
    return;
  }
  const { groups, ...totals } = heap
    ? heapSelf(profile, values.by)
    : cpuTime(profile, values.by, values.inclusive);
  const total = heap ? totals.total : totals.totalUs;
  const rows = [...groups]
    .sort((a, b) => b[1] - a[1])
    .slice(0, Number(values.top))
    .map(([name, value]) => ({ name, value, percent: (100 * value) / total }));
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ kind: heap ? 'heap' : 'cpu', total, rows }, null, 2)}\n`);
    return;
  }
  const unit = heap ? (v) => `${(v / 2 ** 20).toFixed(1)} MB` : (v) => `${(v / 1000).toFixed(0)} ms`;
  process.stdout.write(
    `${heap ? 'live sampled heap' : 'profile wall'}: ${unit(total)} (${values.inclusive && !heap ? 'inclusive' : 'self'}, by ${values.by})\n`,
  );
  for (const row of rows) {
    process.stdout.write(
      `${row.percent.toFixed(1).padStart(5)}%  ${unit(row.value).padStart(9)}  ${row.name}\n`,
    );
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
