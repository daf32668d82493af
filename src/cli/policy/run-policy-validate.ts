// `portcullis policy validate FILE... [--config FILE]...`: exit 0 when every file parses and validates
// in strict mode against the catalog's schema (Cedar's warnings printed on stderr), 1 naming each
// invalid file with its line and Cedar's message, 2 for bad usage.
import type { CommandIo } from '../cli-io.js';
import { loadPoliciesForCli } from './load-policies.js';
import { parsePolicyArgs } from './policy-args.js';

export async function runPolicyValidate(args: string[], io: CommandIo): Promise<number> {
  const parsed = parsePolicyArgs('validate', args, io, { cases: false });
  if (!parsed.ok) return parsed.exitCode;
  const loaded = await loadPoliciesForCli(parsed.files, parsed.configFiles, io);
  if (!loaded.ok) return loaded.exitCode;
  const { policies, files, version } = loaded.set;
  io.stdout(`valid: ${policies.length} ${policies.length === 1 ? 'policy' : 'policies'} in ${files.length} ${files.length === 1 ? 'file' : 'files'} (version ${version})`);
  return 0;
}
