import { lstat, readFile, readdir, readlink, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { AGENT_TEXT, agentEntry, noise, specDefaultLimits, symlinkEntry } from '../../../test/fixtures/bundle-fixtures.js';
import { createStagingSandbox, type StagingSandbox } from '../../../test/fixtures/staging-sandbox.js';
import { buildZip, deflate, unicodePathExtra, type ZipArchiveSpec } from '../../../test/fixtures/zip-builder.js';
import { stageArchive, StagingWriter, type ArchiveLimits, type StagedBundle } from './index.js';
import type { StagedFileWriter } from './staging-writer.js';
import type { StagingWriteBatch } from './staging-writes-requests.js';

/** Every case runs twice: small files written on the event loop (the CLI's check), and by the staging writer's thread (the service). */
const writer = new StagingWriter();
afterAll(() => writer.close());
let currentWriter: StagedFileWriter | undefined;

let sandbox: StagingSandbox;
beforeEach(async () => {
  sandbox = await createStagingSandbox();
});
afterEach(async () => {
  await sandbox.remove();
});

async function stage(bytes: Buffer, options: { limits?: Partial<ArchiveLimits>; uploadName?: string } = {}): Promise<StagedBundle> {
  const zipPath = await sandbox.writeUpload(bytes);
  return stageArchive({ zipPath, stagingRoot: sandbox.stagingRoot, uploadName: options.uploadName, writer: currentWriter }, { ...specDefaultLimits, ...options.limits });
}

function yazlArchive(build: (zip: yazl.ZipFile) => void, options: Partial<yazl.EndOptions> = {}): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  build(zip);
  zip.end({ forceZip64Format: false, comment: '', ...options });
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('error', reject);
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

const realisticBundle = (zip: yazl.ZipFile): void => {
  const text = (value: string): Buffer => Buffer.from(value, 'utf8');
  zip.addBuffer(text('---\nid: research-helper\nname: Research helper\nversion: 1.0\nallowed-tools: clock, calculator\n---\nYou help with research.\n'), 'AGENT.md');
  zip.addBuffer(text('---\nname: summarize\ndescription: Summarizes text.\n---\nKeep it short.\n'), 'skills/summarize/SKILL.md');
  zip.addBuffer(text('---\nid: cite\ndescription: Cites sources.\n---\nAlways cite.\n'), 'skills/cite/SKILL.md', { compress: false });
  zip.addBuffer(text('{"name":"root-plugin"}'), 'plugin.json');
  zip.addBuffer(text('{"name":"p"}'), 'plugins/p/plugin.json');
  zip.addBuffer(text('{"name":"q"}'), 'plugins/q/.claude-plugin/plugin.json', { mode: 0o100600 });
  zip.addEmptyDirectory('empty');
  zip.addReadStream(Readable.from([text('# Guide\n'), text('Streamed, so written with a data descriptor.\n')]), 'docs/guide.md');
};

describe.each([
  ['on the event loop', undefined],
  ['by the staging writer', writer],
])('stageArchive, small files written %s', (_way, way) => {
  beforeEach(() => {
    currentWriter = way;
  });

  it('stages a realistic bundle built with yazl into a private directory under the staging root', async () => {
    const staged = await stage(await yazlArchive(realisticBundle), { uploadName: 'ignored.zip' });
    expect(staged.dir.startsWith(`${sandbox.stagingRoot}/bundle-`)).toBe(true);
    expect((await stat(staged.dir)).mode & 0o777).toBe(0o700);
    expect((await stat(join(staged.dir, 'docs'))).mode & 0o777).toBe(0o700);
    expect((await stat(join(staged.dir, 'empty'))).isDirectory()).toBe(true);
    expect((await stat(join(staged.dir, 'AGENT.md'))).mode & 0o777).toBe(0o600);
    expect(await readFile(join(staged.dir, 'docs', 'guide.md'), 'utf8')).toBe('# Guide\nStreamed, so written with a data descriptor.\n');
    expect(staged.entryCount).toBe(8);
    expect(staged.manifest).toMatchObject({
      id: 'research-helper',
      name: 'Research helper',
      version: '1.0',
      allowedTools: ['clock', 'calculator'],
      skillIds: null,
      systemPrompt: 'You help with research.',
    });
    expect(staged.manifest.skills.map((skill) => skill.id)).toEqual(['cite', 'summarize']);
    expect(staged.manifest.plugins.map((plugin) => plugin.path)).toEqual(['plugin.json', 'plugins/p/plugin.json', 'plugins/q/.claude-plugin/plugin.json']);
  });

  it('counts the bytes it actually wrote', async () => {
    const staged = await stage(buildZip({ entries: [agentEntry(), { name: 'a.txt', data: 'hello' }, symlinkEntry('link', 'a.txt')] }));
    expect(staged.uncompressedBytes).toBe(Buffer.byteLength(AGENT_TEXT) + 'hello'.length + 'a.txt'.length);
  });

  it('accepts a well-formed zip64 archive written by yazl', async () => {
    const staged = await stage(await yazlArchive(realisticBundle, { forceZip64Format: true }));
    expect(staged.manifest.id).toBe('research-helper');
  });

  it.each<[string, ZipArchiveSpec]>([
    ['zip64 entries and end records', { entries: [{ ...agentEntry(), zip64: true }, { name: 'a.txt', data: 'a'.repeat(5000), zip64: true }], zip64End: true }],
    ['zip64 data descriptors', { entries: [agentEntry(), { name: 'a.txt', data: 'abc', zip64: true, dataDescriptor: 'signed' }, { name: 'b.txt', data: 'b', zip64: true, dataDescriptor: 'unsigned' }], zip64End: true }],
    ['signed and unsigned data descriptors', { entries: [agentEntry(), { name: 'a.txt', data: 'abc', dataDescriptor: 'signed' }, { name: 'b.txt', data: 'b', method: 0, dataDescriptor: 'unsigned' }] }],
    ['empty files, stored and deflated', { entries: [agentEntry(), { name: 'stored.txt', data: '', method: 0 }, { name: 'deflated.txt', data: '', method: 8 }] }],
    ['a comment on the end record', { entries: [agentEntry()], comment: 'made by hand' }],
    ['a UTF-8 flag in one header only, on an ASCII name', { entries: [agentEntry(), { name: 'plain.md', data: 'x', local: { flags: 0 } }] }],
    ['DOS-host entries and modes without a type', { entries: [{ ...agentEntry(), versionMadeBy: 0x0014, externalAttributes: 0x20 }, { name: 'dir/', versionMadeBy: 0x0014, externalAttributes: 0x10 }, { name: 'x.txt', data: 'x', externalAttributes: 0 }] }],
  ])('accepts %s', async (_title, spec) => {
    const staged = await stage(buildZip(spec));
    expect(staged.manifest.id).toBe('fixture-agent');
    expect(await readFile(join(staged.dir, 'AGENT.md'), 'utf8')).toBe(AGENT_TEXT);
  });

  it('creates symlink chains that resolve inside staging, after the files they point at', async () => {
    const staged = await stage(
      buildZip({
        entries: [
          symlinkEntry('latest', 'current'),
          symlinkEntry('current', 'docs/v2.md'),
          symlinkEntry('docs-link', 'docs'),
          symlinkEntry('docs/alias.md', '../docs-link/./v2.md'),
          agentEntry(),
          { name: 'docs/v2.md', data: 'version two' },
        ],
      }),
    );
    expect((await lstat(join(staged.dir, 'latest'))).isSymbolicLink()).toBe(true);
    expect(await readlink(join(staged.dir, 'latest'))).toBe('current');
    expect(await readFile(join(staged.dir, 'latest'), 'utf8')).toBe('version two');
    expect(await readFile(join(staged.dir, 'docs', 'alias.md'), 'utf8')).toBe('version two');
    expect(await readdir(join(staged.dir, 'docs-link'))).toEqual(['alias.md', 'v2.md']);
  });

  it('stages a legacy-charset name under its matching Unicode path field', async () => {
    const legacyName = Buffer.from([0x63, 0x61, 0x66, 0x82, 0x2e, 0x6d, 0x64]); // "café.md" in CP437
    const staged = await stage(buildZip({ entries: [agentEntry(), { name: legacyName, utf8: false, data: 'x', extra: unicodePathExtra(legacyName, 'café.md') }] }));
    expect(await readFile(join(staged.dir, 'café.md'), 'utf8')).toBe('x');
  });

  it('treats every maximum as inclusive', async () => {
    const archive = buildZip({ entries: [agentEntry(), { name: 'a.txt', data: 'a'.repeat(100) }] });
    const limits = { maxArchiveBytes: archive.length, maxEntryCount: 2, maxTotalUncompressedBytes: Buffer.byteLength(AGENT_TEXT) + 100 };
    await expect(stage(archive, { limits })).resolves.toMatchObject({ entryCount: 2 });
  });

  it('applies no ratio to a small repetitive file beside a large incompressible one', async () => {
    const archive = buildZip({ entries: [agentEntry(), { name: 'zeros.bin', data: Buffer.alloc(512 * 1024) }, { name: 'noise.bin', data: noise(2 * 1024 * 1024), method: 0 }] });
    await expect(stage(archive)).resolves.toMatchObject({ entryCount: 3 });
  });

  it('writes small and large entries, deflated and stored, byte for byte', async () => {
    const large = noise(3 * 1024 * 1024);
    const stored = noise(1536 * 1024);
    const small = Array.from({ length: 300 }, (_, i) => ({ name: `small/f${i}.txt`, data: `file ${i} `.repeat(50 + i) }));
    const staged = await stage(buildZip({ entries: [agentEntry(), { name: 'large.bin', data: large }, { name: 'stored.bin', data: stored, method: 0 }, ...small] }));
    expect((await readFile(join(staged.dir, 'large.bin'))).equals(large)).toBe(true);
    expect((await readFile(join(staged.dir, 'stored.bin'))).equals(stored)).toBe(true);
    for (const entry of small) expect(await readFile(join(staged.dir, entry.name), 'utf8')).toBe(entry.data);
  });

  it('refuses a large entry with bytes hidden after its deflate stream, or more data than declared', async () => {
    const large = noise(1536 * 1024);
    const hidden = buildZip({ entries: [agentEntry(), { name: 'large.bin', data: large, compressed: Buffer.concat([deflate(large), Buffer.from('MARKER')]) }] });
    await expect(stage(hidden)).rejects.toMatchObject({ guard: 'size-mismatch' });
    const lying = buildZip({ entries: [agentEntry(), { name: 'large.bin', data: large, declared: { uncompressedSize: 2 * 1024 * 1024 } }] });
    await expect(stage(lying)).rejects.toMatchObject({ guard: 'size-mismatch' });
  });

  it('applies no ratio to a bundle that expands to 1 MiB or less', async () => {
    await expect(stage(buildZip({ entries: [agentEntry(), { name: 'zeros.bin', data: Buffer.alloc(1000 * 1024) }] }))).resolves.toMatchObject({ entryCount: 2 });
  });

  it('takes the agent id from the upload name when the front matter has neither id nor name', async () => {
    const staged = await stage(buildZip({ entries: [agentEntry('---\ndescription: d\n---\nBody.\n')] }), { uploadName: 'uploads/my-agent.v2.zip' });
    expect(staged.manifest.id).toBe('my-agent.v2');
  });

  it('creates a missing staging root', async () => {
    await rm(sandbox.stagingRoot, { recursive: true });
    const staged = await stage(buildZip({ entries: [agentEntry()] }));
    expect(staged.dir.startsWith(sandbox.stagingRoot)).toBe(true);
  });

  it('gives each upload its own staging directory', async () => {
    const archive = buildZip({ entries: [agentEntry()] });
    const [first, second] = await Promise.all([stage(archive), stage(archive)]);
    expect(first.dir).not.toBe(second.dir);
    expect((await readdir(sandbox.stagingRoot)).length).toBe(2);
  });
});

describe('stageArchive with a staging writer', () => {
  it('writes a batch itself when the writer\'s line is full, byte for byte', async () => {
    const batches: number[] = [];
    currentWriter = {
      write: (batch: StagingWriteBatch) => {
        batches.push(batch.paths.length);
        return Promise.resolve(false);
      },
    };
    const small = Array.from({ length: 300 }, (_, i) => ({ name: `small/f${i}.txt`, data: `file ${i} `.repeat(20 + i) }));
    const staged = await stage(buildZip({ entries: [agentEntry(), ...small] }));
    expect(batches.reduce((sum, files) => sum + files, 0)).toBe(301);
    expect(batches.length).toBeGreaterThan(1);
    for (const entry of small) expect(await readFile(join(staged.dir, entry.name), 'utf8')).toBe(entry.data);
    expect((await stat(join(staged.dir, 'small', 'f0.txt'))).mode & 0o777).toBe(0o600);
  });

  it('fails the staging when a batch cannot be written, after every batch under way settled, and stages nothing', async () => {
    let calls = 0;
    let settled = 0;
    currentWriter = {
      write: async () => {
        calls += 1;
        const call = calls;
        await new Promise((resolve) => setTimeout(resolve, 20));
        settled += 1;
        if (call === 1) throw new Error('staging write failed: ENOSPC');
        return true;
      },
    };
    const small = Array.from({ length: 400 }, (_, i) => ({ name: `f${i}.txt`, data: noise(4096).toString('base64') }));
    await expect(stage(buildZip({ entries: [agentEntry(), ...small] }))).rejects.toThrow('staging write failed: ENOSPC');
    expect(settled).toBe(calls);
    // Four batches of 128 files at most; the first fails while the second is under way, and no third starts.
    expect(calls).toBe(2);
    expect(await readdir(sandbox.stagingRoot).catch(() => [])).toEqual([]);
  });

  it('refuses an entry whose file is already there when the writer\'s thread opens it (O_EXCL), as the event loop would', async () => {
    currentWriter = writer;
    const staged = await stage(buildZip({ entries: [agentEntry(), { name: 'a.txt', data: 'first' }] }));
    await expect(writer.write({ paths: [join(staged.dir, 'a.txt')], sizes: [6], data: Buffer.from('second') })).rejects.toThrow(/EEXIST/);
    expect(await readFile(join(staged.dir, 'a.txt'), 'utf8')).toBe('first');
  });
});
