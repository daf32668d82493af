// `portcullis policy <validate|test> …`: dispatches to the subcommand; `--help` answers 0, anything
// else is bad usage (2).
import type { CommandIo } from '../cli-io.js';
import { POLICY_USAGE } from './policy-usage.js';
import { runPolicyTest } from './run-policy-test.js';
import { runPolicyValidate } from './run-policy-validate.js';

export async function runPolicy(args: string[], io: CommandIo): Promise<number> {
  const [subcommand, ...rest] = args;
  if (subcommand === 'validate') return runPolicyValidate(rest, io);
  if (subcommand === 'test') return runPolicyTest(rest, io);
  if (subcommand === '--help' || subcommand === '-h') {
    io.stdout(POLICY_USAGE);
    return 0;
  }
  io.stderr(`portcullis policy: ${subcommand === undefined ? 'name a subcommand' : `unknown subcommand '${subcommand}'`}\n${POLICY_USAGE}`);
  return 2;
}
