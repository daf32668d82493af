#!/usr/bin/env node
// The `portcullis` executable: dispatches to a command, wires process signals to an AbortSignal
// and turns the command's result into the exit code (0 clean, 1 refused config, 2 bad usage).
import { runServe } from './serve.js';
import { runMigrate } from './migrate.js';
import { runDevIdp, runToken } from './dev-idp/index.js';
import { runBundle } from './bundle-pack/index.js';
import { USAGE, type CommandIo } from './cli-io.js';

type Command = (args: string[], io: CommandIo) => Promise<number>;

const commands: Readonly<Record<string, Command>> = {
  serve: runServe,
  migrate: runMigrate,
  'dev-idp': (args, io) => runDevIdp(args, io),
  token: (args, io) => runToken(args, io),
  bundle: (args, io) => runBundle(args, io),
};

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
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
  };
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? io.stderr : io.stdout)(USAGE);
    return name === undefined ? 2 : 0;
  }
  const command = commands[name];
  if (command === undefined) {
    io.stderr(`portcullis: unknown command '${name}'\n${USAGE}`);
    return 2;
  }
  return command(rest, io);
}

// Exit explicitly once output is flushed: a clean shutdown must not wait on stray handles.
function exit(code: number): void {
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

main(process.argv.slice(2)).then(exit, (error: unknown) => {
  process.stderr.write(`portcullis: ${error instanceof Error ? error.message : String(error)}\n`);
  exit(1);
});
