#!/usr/bin/env node
// Runs the compiled CLI: no TypeScript loader on the start-up path.
import { main } from '../dist/cli/main.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    // main() maps every known error to an exit code; anything reaching here is a bug.
    process.stderr.write(`driftcheck: internal error: ${error?.stack ?? error}\n`);
    process.exitCode = 70;
  },
);
