// Preloaded (node --import) into a measured child when GNU time is missing: on exit, writes
// "user_s sys_s maxrss_kib" — the kernel's figures, in the format GNU time -f '%U %S %M' uses.
import { writeFileSync } from 'node:fs';
import process from 'node:process';

const file = process.env.BENCH_PEAK_RSS_FILE;
if (file) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    writeFileSync(file, `${usage.userCPUTime / 1e6} ${usage.systemCPUTime / 1e6} ${usage.maxRSS}\n`);
  });
}
