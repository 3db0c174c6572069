#!/usr/bin/env node
// Runs the compiled CLI: no TypeScript loader on the start-up path.
import { main } from '../dist/cli/main.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    // main() maps every error to an exit code (70 for a bug); this is the last resort.
    process.stderr.write(`driftcheck: internal error: ${error?.stack ?? error}\n`);
    process.exitCode = 70;
  },
);
