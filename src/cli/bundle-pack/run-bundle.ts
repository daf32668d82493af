// `portcullis bundle <subcommand>`: `pack` here; `run` (which talks to a service) is dispatched by
// run-cli.ts to remote/, but listed in this help so `bundle --help` shows both.
import type { PackIo } from './pack-io.js';
import { runBundlePack } from './run-bundle-pack.js';

export const BUNDLE_USAGE = [
  'usage: portcullis bundle <subcommand>',
  '',
  'subcommands:',
  '  pack DIR [-o FILE]                     zip an agent folder and check it as the server would (see: bundle pack --help)',
  '  run DIR-or-ZIP --message TEXT...       upload (packing a folder) and run a conversation (see: bundle run --help)',
  '',
  'options:',
  '  -h, --help                             show this help',
].join('\n');

export async function runBundle(args: string[], io: PackIo): Promise<number> {
  const [subcommand, ...rest] = args;
  if (subcommand === 'pack') return runBundlePack(rest, io);
  if (subcommand === '--help' || subcommand === '-h' || subcommand === 'help') {
    io.stdout(BUNDLE_USAGE);
    return 0;
  }
  io.stderr(`portcullis bundle: ${subcommand === undefined ? 'a subcommand is needed' : `unknown subcommand '${subcommand}'`}\n${BUNDLE_USAGE}`);
  return 2;
}
