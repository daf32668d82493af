// The command line both `policy` subcommands share: policy files as positionals, --config (repeatable),
// --cases for `test`, --help. Bad usage prints the problem and the help on stderr (exit 2).
import { parseArgs } from 'node:util';
import type { CommandIo } from '../cli-io.js';
import { POLICY_USAGE } from './policy-usage.js';

export type PolicyArgs =
  | { readonly ok: true; readonly files: readonly string[]; readonly configFiles: readonly string[]; readonly cases: string | undefined }
  | { readonly ok: false; readonly exitCode: number };

export function parsePolicyArgs(command: 'validate' | 'test', args: string[], io: CommandIo, { cases }: { cases: boolean }): PolicyArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: { config: { type: 'string', multiple: true }, help: { type: 'boolean', short: 'h' }, ...(cases ? { cases: { type: 'string' as const } } : {}) },
      strict: true,
      allowPositionals: true,
    });
  } catch (error) {
    return usageError(command, (error as Error).message, io);
  }
  if (parsed.values.help === true) {
    io.stdout(POLICY_USAGE);
    return { ok: false, exitCode: 0 };
  }
  if (parsed.positionals.length === 0) return usageError(command, 'name at least one policy file', io);
  const casesFile = 'cases' in parsed.values ? parsed.values.cases : undefined;
  if (cases && (typeof casesFile !== 'string' || casesFile.trim() === '')) return usageError(command, '--cases FILE is required', io);
  return { ok: true, files: parsed.positionals, configFiles: parsed.values.config ?? [], cases: typeof casesFile === 'string' ? casesFile : undefined };
}

export function usageError(command: string, message: string, io: CommandIo): { readonly ok: false; readonly exitCode: number } {
  io.stderr(`portcullis policy ${command}: ${message}\n${POLICY_USAGE}`);
  return { ok: false, exitCode: 2 };
}
