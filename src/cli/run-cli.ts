// Dispatches `portcullis <command> …` to a command and returns its exit code (0 clean, 1 refused
// start-up, 2 bad usage). `--help` and `--version` answer 0 on stdout; a missing or unknown command
// is bad usage. Knows nothing of process.*: main.ts supplies the io.
import { runBundle } from './bundle-pack/index.js';
import { USAGE, type CommandIo } from './cli-io.js';
import { runDevIdp, runToken } from './dev-idp/index.js';
import { packageVersion } from './package-version.js';
import { runMigrate } from './migrate.js';
import { runServe } from './serve.js';

type Command = (args: string[], io: CommandIo) => Promise<number>;

const commands: Readonly<Record<string, Command>> = {
  serve: runServe,
  migrate: runMigrate,
  'dev-idp': (args, io) => runDevIdp(args, io),
  token: (args, io) => runToken(args, io),
  bundle: (args, io) => runBundle(args, io),
};

export async function runCli(argv: readonly string[], io: CommandIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version') {
    io.stdout(`portcullis ${packageVersion()}`);
    return 0;
  }
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? io.stderr : io.stdout)(USAGE);
    return name === undefined ? 2 : 0;
  }
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (command === undefined) {
    io.stderr(`portcullis: unknown command '${name}'\n${USAGE}`);
    return 2;
  }
  return command(rest, io);
}
