import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runBundle } from './run-bundle.js';
import { checkArchive } from './check-archive.js';

const examples = fileURLToPath(new URL('../../../examples/bundles/', import.meta.url));
let cwd: string;
let out: string[];
let err: string[];
const io = () => ({ stdout: (line: string) => void out.push(line), stderr: (line: string) => void err.push(line), cwd });

beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'portcullis-pack-'));
  out = [];
  err = [];
});
afterEach(async () => rm(cwd, { recursive: true, force: true }));

async function agentFolder(files: Record<string, string>): Promise<string> {
  const dir = join(cwd, 'agent');
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

describe('portcullis bundle pack', () => {
  it.each(['trip-timer', 'handbook-guide', 'triage-desk'])('packs the %s example into an archive the server accepts', async (name) => {
    expect(await runBundle(['pack', join(examples, name)], io())).toBe(0);
    expect(err).toEqual([]);
    expect(out[0]).toMatch(new RegExp(`^packed .*${name}\\.zip \\(\\d+ entries, \\d+ bytes\\)$`));
    expect(out[1]).toContain(`agent ${name}`);
    const manifest = await checkArchive(join(cwd, `${name}.zip`), { warn: () => undefined });
    expect(manifest.id).toBe(name);
  });

  it('writes where -o says (making its folder), and the same folder always packs to the same bytes', async () => {
    const dir = await agentFolder({ 'AGENT.md': '---\nid: a\n---\nHi.\n', 'skills/s/SKILL.md': '---\nid: s\n---\nBody.\n' });
    expect(await runBundle(['pack', dir, '-o', 'one.zip'], io())).toBe(0);
    expect(await runBundle(['pack', dir, '--output', join(cwd, 'two.zip')], io())).toBe(0);
    expect(await readFile(join(cwd, 'one.zip'))).toEqual(await readFile(join(cwd, 'two.zip')));
    expect(await runBundle(['pack', dir, '-o', join('not', 'yet', 'three.zip')], io())).toBe(0);
    expect(await readFile(join(cwd, 'not', 'yet', 'three.zip'))).toEqual(await readFile(join(cwd, 'one.zip')));
  });

  it.each([
    ['missing-agent-manifest', { 'README.md': 'no agent here' }],
    ['unresolvable-agent-id', { 'AGENT.md': 'No front matter.' }],
    ['invalid-agent-manifest', { 'AGENT.md': '---\nid: [unclosed\n---\nBody\n' }],
  ])('exits 1 naming the %s guard, and leaves no archive behind', async (guard, files) => {
    const dir = await agentFolder(files);
    expect(await runBundle(['pack', dir], io())).toBe(1);
    expect(err.join('\n')).toContain(`guard ${guard}`);
    expect((await readdir(cwd)).filter((name) => name.endsWith('.zip'))).toEqual([]);
  });

  it('exits 1 for a symlink that would escape staging, naming the escaping-symlink guard', async () => {
    const dir = await agentFolder({ 'AGENT.md': '---\nid: a\n---\nHi.\n' });
    await symlink('../../../etc/passwd', join(dir, 'leak'));
    expect(await runBundle(['pack', dir], io())).toBe(1);
    expect(err.join('\n')).toContain('guard escaping-symlink');
  });

  it.runIf(process.platform !== 'win32')('exits 1 for a FIFO, naming the special-file guard', async () => {
    const dir = await agentFolder({ 'AGENT.md': '---\nid: a\n---\nHi.\n' });
    execFileSync('mkfifo', [join(dir, 'pipe')]);
    expect(await runBundle(['pack', dir], io())).toBe(1);
    expect(err.join('\n')).toContain('guard special-file');
  });

  it.each([[[]], [['pack']], [['pack', 'a', 'b']], [['pack', '--nope', 'x']], [['pack', 'does-not-exist']], [['unpack', 'x']], [['pack', '.', '-o', ' ']]])(
    'exits 2 for bad usage: %j',
    async (args) => {
      expect(await runBundle(args, io())).toBe(2);
      expect(err.join('\n')).toMatch(/usage: portcullis bundle( pack DIR \[-o FILE\]| <subcommand>)/);
    },
  );
});
