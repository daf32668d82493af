// Runs a command that talks to a service: parses its spec (--help exits 0, bad usage exits 2),
// connects with --url/--token or the environment, and turns what the service refuses into exit 3
// with the problem printed (as JSON with --json; its diagnostics or violations one a line), and an
// unreachable service into exit 3 too.
import { isPortcullisProblem, type PortcullisClient } from '../../client/index.js';
import type { CommandIo } from '../cli-io.js';
import { helpText, parseCommand, usageLine, type CommandSpec } from './command-spec.js';
import { connect } from './connection.js';
import { EXIT } from './exit-codes.js';

/** A CommandIo plus text without a line end on stdout (live transcripts) and, when stderr is a terminal, that terminal (progress bars). */
export interface RemoteIo extends CommandIo {
  readonly write: (text: string) => void;
  readonly terminal?: NodeJS.WriteStream;
}

export interface RemoteContext {
  readonly values: Record<string, string | boolean | string[] | undefined>;
  readonly positionals: string[];
  readonly client: PortcullisClient;
  readonly json: boolean;
  /** The service's origin the client talks to. */
  readonly url: string;
}

/** Thrown by a command body for a command line it cannot use (exit 2). */
export class UsageError extends Error {}

export async function runRemote(spec: CommandSpec, args: string[], io: RemoteIo, body: (context: RemoteContext) => Promise<number>): Promise<number> {
  const parsed = parseCommand(spec, args);
  if (parsed.kind === 'help') {
    io.stdout(helpText(spec));
    return EXIT.ok;
  }
  const usage = (message: string): number => {
    io.stderr(`portcullis ${spec.name}: ${message}\n${usageLine(spec)} (see --help)`);
    return EXIT.usage;
  };
  if (parsed.kind === 'usage') return usage(parsed.message);
  const { client, url } = connect(parsed.values, io.env);
  const json = parsed.values.json === true;
  try {
    return await body({ values: parsed.values, positionals: parsed.positionals, client, json, url });
  } catch (error) {
    if (error instanceof UsageError) return usage(error.message);
    if (isPortcullisProblem(error)) {
      if (json) io.stdout(JSON.stringify(error.problem));
      io.stderr(`portcullis ${spec.name}: the service refused: ${error.status} ${error.title}: ${error.detail}`);
      for (const d of (error.problem.diagnostics as Array<{ code: string; step?: string; message: string }> | undefined) ?? []) {
        io.stderr(`  ${d.code}${d.step !== undefined ? ` (${d.step})` : ''}: ${d.message}`);
      }
      for (const violation of (error.problem.violations as string[] | undefined) ?? []) io.stderr(`  ${violation}`);
      return EXIT.refused;
    }
    if (io.signal.aborted) {
      io.stderr(`portcullis ${spec.name}: interrupted`);
      return EXIT.failed;
    }
    if (error instanceof TypeError && /fetch failed/i.test(error.message)) {
      io.stderr(`portcullis ${spec.name}: cannot reach the service at ${url} (${describeCause(error)})`);
      return EXIT.refused;
    }
    throw error;
  }
}

/** The one id a command like `schedule delete ID` takes; ids are opaque and may begin with '-', so they may follow `--`. */
export function oneId(positionals: readonly string[], what: string): string {
  if (positionals.length !== 1) throw new UsageError(`exactly one ${what} id is needed (after -- when it begins with '-')`);
  return positionals[0]!;
}

/** A command that takes no positional argument (`schedule list`) refuses one. */
export function noArguments(positionals: readonly string[]): void {
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
}

/** What a command group (`workflow`, `approvals`, `eval`) answers to anything but one of its subcommands: its usage for --help (exit 0), else bad usage (exit 2). */
export function groupUsage(group: string, usage: string, subcommand: string | undefined, io: RemoteIo): number {
  if (subcommand === '--help' || subcommand === '-h' || subcommand === 'help') {
    io.stdout(usage);
    return EXIT.ok;
  }
  io.stderr(`portcullis ${group}: ${subcommand === undefined ? 'a subcommand is needed' : `unknown subcommand '${subcommand}'`}\n${usage}`);
  return EXIT.usage;
}

function describeCause(error: TypeError): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? error.message;
}
