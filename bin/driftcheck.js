#!/usr/bin/env node
// Runs the compiled CLI, bundled (scripts/bundle.mjs): no TypeScript loader on the start-up path.
import { main } from '../dist/bin/main.js';

main(process.argv.slice(2)).then(
  (code) => exitWhenFlushed(code),
  (error) => {
    // main() maps every error to an exit code (70 for a bug); this is the last resort.
    process.stderr.write(`driftcheck: internal error: ${error?.stack ?? error}\n`);
    exitWhenFlushed(70);
  },
);

/**
 * Exits once stdout and stderr have flushed. Waiting for the event loop to drain instead
 * costs up to half a second per run: V8 keeps optimising undici's WebAssembly HTTP parser
 * in the background after the work is done.
 */
function exitWhenFlushed(code) {
  process.exitCode = code;
  let pending = 2;
  const done = () => {
    if (--pending === 0) process.exit(code);
  };
  process.stdout.write('', done);
  process.stderr.write('', done);
}
