#!/usr/bin/env node
import { main } from './main.js';

// The entry point only starts `main`; everything else is importable and testable.
main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`aibuddy: unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
