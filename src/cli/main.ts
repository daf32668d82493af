#!/usr/bin/env node
// The `portcullis` executable: dispatches to a command, wires process signals to an AbortSignal
// and turns the command's result into the exit code (0 clean, 1 refused config, 2 bad usage).
import { USAGE, type CommandIo } from './cli-io.js';
import type { RemoteIo } from './remote/index.js';
import { packageInfo } from '../platform/package-info/index.js';

type Command = (args: string[], io: CommandIo) => Promise<number>;

// Each command is loaded when it runs: `eval run` in a CI job does not pay for loading the server.
const commands: Readonly<Record<string, Command>> = {
  serve: async (args, io) => (await import('./serve.js')).runServe(args, io),
  'dev-idp': async (args, io) => (await import('./dev-idp/index.js')).runDevIdp(args, io),
  token: async (args, io) => (await import('./dev-idp/index.js')).runToken(args, io),
  bundle: async (args, io) =>
    args[0] === 'run'
      ? (await import('./remote/index.js')).runBundleRunCommand(args.slice(1), remote(io))
      : (await import('./bundle-pack/index.js')).runBundle(args, io),
  eval: async (args, io) => (await import('./remote/index.js')).runEvalCommand(args, remote(io)),
  workflow: async (args, io) => (await import('./remote/index.js')).runWorkflowCommand(args, remote(io)),
};

/** What the service-facing commands add: partial stdout writes and stderr's terminal for progress bars. */
function remote(io: CommandIo): RemoteIo {
  return { ...io, write: (text) => void process.stdout.write(text), ...(process.stderr.isTTY ? { terminal: process.stderr } : {}) };
}

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
  if (name === '--version' || name === '-V' || name === 'version') {
    io.stdout(packageInfo().version);
    return 0;
  }
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
