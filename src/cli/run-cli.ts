// Dispatches `portcullis <command> …` to a command and returns its exit code (0 clean, 1 refused
// start-up or a failed verdict, 2 bad usage, 3 refused by the service). `--help` and `--version` answer
// 0 on stdout; a missing or unknown command is bad usage. Each command is loaded when it runs, so
// `eval run` in a CI job does not pay for loading the server. Knows nothing of process.*: main.ts
// supplies the io.
import { USAGE, type CommandIo } from './cli-io.js';
import type { RemoteIo } from './remote/index.js';
import { packageInfo } from '../platform/package-info/index.js';

type Command = (args: string[], io: CommandIo) => Promise<number>;

/** The service-facing commands write partial lines and draw progress on stderr's terminal, when there is one. */
function remote(io: CommandIo): RemoteIo {
  return { ...io, write: io.write ?? ((text) => io.stdout(text.replace(/\n$/, ''))) };
}

const commands: Readonly<Record<string, Command>> = {
  serve: async (args, io) => (await import('./serve.js')).runServe(args, io),
  migrate: async (args, io) => (await import('./migrate.js')).runMigrate(args, io),
  'dev-idp': async (args, io) => (await import('./dev-idp/index.js')).runDevIdp(args, io),
  token: async (args, io) => (await import('./dev-idp/index.js')).runToken(args, io),
  bundle: async (args, io) =>
    args[0] === 'run'
      ? (await import('./remote/index.js')).runBundleRunCommand(args.slice(1), remote(io))
      : (await import('./bundle-pack/index.js')).runBundle(args, io),
  eval: async (args, io) => (await import('./remote/index.js')).runEvalCommand(args, remote(io)),
  workflow: async (args, io) => (await import('./remote/index.js')).runWorkflowCommand(args, remote(io)),
  approvals: async (args, io) => (await import('./remote/index.js')).runApprovalsCommand(args, remote(io)),
  schedule: async (args, io) => (await import('./remote/index.js')).runScheduleCommand(args, remote(io)),
  webhook: async (args, io) => (await import('./remote/index.js')).runWebhookCommand(args, remote(io)),
  mcp: async (args, io) => (await import('./remote/index.js')).runMcpCommand(args, remote(io)),
  policy: async (args, io) => (await import('./policy/index.js')).runPolicy(args, io),
};

export async function runCli(argv: readonly string[], io: CommandIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-V' || name === 'version') {
    io.stdout(`portcullis ${packageInfo().version}`);
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
