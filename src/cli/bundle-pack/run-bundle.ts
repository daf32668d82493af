// `portcullis bundle <subcommand>`: today only `pack`.
import type { PackIo } from './pack-io.js';
import { BUNDLE_PACK_USAGE, runBundlePack } from './run-bundle-pack.js';

export async function runBundle(args: string[], io: PackIo): Promise<number> {
  const [subcommand, ...rest] = args;
  if (subcommand === 'pack') return runBundlePack(rest, io);
  io.stderr(`portcullis bundle: ${subcommand === undefined ? 'a subcommand is needed' : `unknown subcommand '${subcommand}'`}\n${BUNDLE_PACK_USAGE}`);
  return 2;
}
