#!/usr/bin/env node
// The `portcullis` executable: wires process signals to an AbortSignal, runs the command and turns
// its result into the exit code (0 clean, 1 refused config, 2 bad usage).
import type { CommandIo } from './cli-io.js';
import { runCli } from './run-cli.js';

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
};

// Exit explicitly once output is flushed: a clean shutdown must not wait on stray handles.
function exit(code: number): void {
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

runCli(process.argv.slice(2), io).then(exit, (error: unknown) => {
  process.stderr.write(`portcullis: ${error instanceof Error ? error.message : String(error)}\n`);
  exit(1);
});
