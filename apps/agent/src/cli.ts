#!/usr/bin/env node
import { main } from './main.js';

/**
 * Resolves once everything written to `stream` so far has been handed to the OS. On pipes Node
 * writes asynchronously: `process.exit` right after a large write cuts the output (at 64 KiB, the
 * pipe buffer) when the reader is slower than the writer.
 */
function drained(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed || !stream.writable) return resolve();
    // The callback of an empty write runs after every earlier chunk has been flushed (writes are ordered).
    stream.write('', () => resolve());
    // A reader that went away (EPIPE) must not keep the process alive.
    stream.once('error', () => resolve());
  });
}

// A reader that went away (`aibuddy view-call … | head -1`) must not crash the process with an
// unhandled EPIPE; the command ends as programs ended by SIGPIPE do, with 141 (`aibuddy run` also
// stops its run, see run-command.ts).
let stdoutClosed = false;
process.stdout.on('error', () => {
  stdoutClosed = true;
});

async function exit(code: number): Promise<never> {
  await Promise.all([drained(process.stdout), drained(process.stderr)]);
  process.exit(stdoutClosed && code === 0 ? 141 : code);
}

// `pnpm aibuddy …` from a checkout runs this file with the repository root as the current folder;
// pnpm and npm pass the caller's folder as INIT_CWD. Work there, so the current folder is the
// workspace and relative paths mean what the caller typed.
if (process.env.npm_lifecycle_event === 'aibuddy' && process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);

// The entry point only starts `main`; everything else is importable and testable.
main(process.argv.slice(2)).then(
  (code) => exit(code),
  (error: unknown) => {
    process.stderr.write(
      `aibuddy: unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    return exit(1);
  },
);
