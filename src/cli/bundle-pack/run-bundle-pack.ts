// `portcullis bundle pack DIR [-o FILE]`: zips an agent folder and checks the archive as the server
// would. Exit 0 with a summary; 1 when the server would refuse it (naming the guard; no archive is
// left behind); 2 for bad usage.
import { mkdir, rm, stat } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { isArchiveRejected } from '../../bundles/archive/index.js';
import { selectSkills } from '../../agent/index.js';
import { checkArchive } from './check-archive.js';
import type { PackIo } from './pack-io.js';
import { zipFolder } from './zip-folder.js';

export const BUNDLE_PACK_USAGE = [
  'usage: portcullis bundle pack DIR [-o FILE]',
  '',
  'Zips an agent folder (AGENT.md, skills/, plugins/) and checks the zip exactly as the server will.',
  'Exit 1 names the guard that would refuse it; nothing is left behind then.',
  '',
  'options:',
  '  -o, --output FILE   the zip to write, its folder made if missing (default: <folder name>.zip in the working directory)',
  '  -h, --help          show this help',
].join('\n');

export async function runBundlePack(args: string[], io: PackIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, options: { output: { type: 'string', short: 'o' }, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: true });
  } catch (error) {
    return usageError(io, (error as Error).message);
  }
  if (parsed.values.help === true) {
    io.stdout(BUNDLE_PACK_USAGE);
    return 0;
  }
  if (parsed.positionals.length !== 1) return usageError(io, 'exactly one folder is needed');
  const dir = resolve(io.cwd, parsed.positionals[0] ?? '');
  if (!(await stat(dir).then((s) => s.isDirectory(), () => false))) return usageError(io, `${parsed.positionals[0]} is not a folder`);
  if (parsed.values.output !== undefined && parsed.values.output.trim() === '') return usageError(io, '-o needs a file name');
  const out = resolve(io.cwd, parsed.values.output ?? `${basename(dir)}.zip`);

  const warnings: string[] = [];
  const log = { warn: (_details: Record<string, unknown>, message: string) => void warnings.push(message) };
  try {
    // `-o .portcullis/x.zip` in a fresh checkout: the folder is made, as `mkdir -p` would.
    await mkdir(dirname(out), { recursive: true });
    const { entries } = await zipFolder(dir, out);
    const manifest = await checkArchive(out, log);
    const { size } = await stat(out);
    for (const warning of warnings) io.stderr(`warning: ${warning}`);
    const skills = selectSkills(manifest).map((skill) => skill.id);
    io.stdout(`packed ${out} (${entries} entries, ${size} bytes)`);
    io.stdout(`agent ${manifest.id}${skills.length > 0 ? `; skills: ${skills.join(', ')}` : ''}${manifest.allowedTools ? `; allowed-tools: ${manifest.allowedTools.join(', ') || '(none)'}` : ''}${requireApprovalNote(manifest.requireApproval)}`);
    return 0;
  } catch (error) {
    await rm(out, { force: true });
    if (isArchiveRejected(error)) {
      io.stderr(`portcullis bundle pack: the server would refuse this bundle (guard ${error.guard}): ${error.detail}`);
      return 1;
    }
    io.stderr(`portcullis bundle pack: ${(error as Error).message}`);
    return 1;
  }
}

function usageError(io: PackIo, message: string): number {
  io.stderr(`portcullis bundle pack: ${message}\n${BUNDLE_PACK_USAGE}`);
  return 2;
}

/** What `require-approval:` asks for, as the pack check reports it (DESIGN.md §13: it only tightens). */
function requireApprovalNote(requireApproval: readonly string[] | 'all' | null): string {
  if (requireApproval === null) return '';
  const which = requireApproval === 'all' ? 'every tool call' : requireApproval.join(', ') || '(none)';
  return `; require-approval: ${which} (asks a person when the host has approvals on)`;
}
