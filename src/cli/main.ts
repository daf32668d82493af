#!/usr/bin/env node
// The `portcullis` executable: wires process signals to an AbortSignal, runs the command and turns
// its result into the exit code (0 clean, 1 refused config, 2 bad usage; 141 when the reader of its
// output went away, decision 2701).
import { keepTickShape } from '../platform/runtime/index.js';
import type { CommandIo } from './cli-io.js';
import { stdoutIsTheLog } from './merged-output.js';

// Before the program loads (its loading runs full collections): decision 3610.
keepTickShape();
const { runCli } = await import('./run-cli.js');

/** A shell's status for a command killed by SIGPIPE (128 + 13); Node ignores the signal itself. */
const EXIT_BROKEN_PIPE = 141;

// A reader that closes early (`… | head -3`) makes the next write fail with EPIPE: end quietly, as a
// tool killed by SIGPIPE does, instead of dying on an unhandled 'error' event with a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(EXIT_BROKEN_PIPE);
  });
}

const controller = new AbortController();
const stop = (): void => controller.abort();
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
const io: CommandIo = {
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
  cwd: process.cwd(),
  env: process.env,
  signal: controller.signal,
  write: (text) => void process.stdout.write(text),
  ...(process.stderr.isTTY ? { terminal: process.stderr } : {}),
  stdoutIsTheLog: stdoutIsTheLog(),
};

// Exit explicitly once output is flushed: a clean shutdown must not wait on stray handles.
function exit(code: number): void {
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

runCli(process.argv.slice(2), io).then(exit, (error: unknown) => {
  process.stderr.write(`portcullis: ${error instanceof Error ? error.message : String(error)}\n`);
  exit(1);
});
