import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

// Four projects, by what a test needs; a file's suffix says which (test/lint/test-projects.test.ts
// and `npm run lint` hold a file to what its suffix promises):
//   unit     *.test.ts          modules in-process, against real files and loopback servers: the
//                               inner loop (`npx vitest run --project unit`, no build needed)
//   cli      *.cli.test.ts      commands in-process through the CLI's main(argv, io)
//                               (test/helpers/main.ts): what a command decides, prints and writes
//   process  *.process.test.ts  what only a process shows: the built binary's exit, signals,
//                               terminal, installs, memory, a sim in its own process
//   browser  *.browser.test.ts  pages in headless Chromium (/usr/bin/chromium)
// `npm test` builds, then runs all four.
const SUFFIXED = ['cli', 'process', 'browser'] as const;

export default defineConfig({
  test: {
    // At least 4 workers, more than a 2-core machine's cores: a test spends much of its time
    // waiting on a child process, a loopback socket or a timer, not on the CPU. On 2 cores
    // (vitest 4.1, this suite): 2 workers 432 s wall for 539 s of CPU, 4 workers 280 s for
    // 519 s; the unit project alone 74 s → 43 s.
    maxWorkers: Math.max(4, availableParallelism()),
    // Commands spawned with the worker's environment keep no verdicts in the user's cache
    // folder (util/verdict-cache.ts); the helpers say the same (test/helpers/cli.ts QUIET_ENV).
    env: { DRIFTCHECK_CACHE_DIR: 'off' },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...SUFFIXED.map((p) => `test/**/*.${p}.test.ts`)],
        },
      },
      {
        extends: true,
        // Many commands in one worker, as a library caller runs many runs in one process: what
        // one leaves behind (a listener, a cache, a handle) shows in the next file's. Isolated,
        // each file loaded the CLI's whole module graph again: 91 s wall / 175 s CPU on 2 cores,
        // against 47 s / 77 s.
        test: { name: 'cli', include: ['test/**/*.cli.test.ts'], isolate: false },
      },
      ...(['process', 'browser'] as const).map((name) => ({
        extends: true as const,
        test: { name, include: [`test/**/*.${name}.test.ts`] },
      })),
    ],
  },
});
