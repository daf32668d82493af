import { readdir } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentEntry, noise, specDefaultLimits, symlinkEntry } from '../../../test/fixtures/bundle-fixtures.js';
import { createStagingSandbox, type StagingSandbox } from '../../../test/fixtures/staging-sandbox.js';
import { buildZip, deflate, endRecord, unicodePathExtra, unixModes, type ZipEntrySpec } from '../../../test/fixtures/zip-builder.js';
import { archiveGuardDetail, archiveGuards, ArchiveRejected, stageArchive, type ArchiveGuard, type ArchiveLimits } from './index.js';

interface GuardCase {
  readonly title: string;
  readonly archive: () => Buffer;
  readonly limits?: Partial<ArchiveLimits>;
  readonly uploadName?: string;
}

const agent = agentEntry();
const zip = (...entries: ZipEntrySpec[]): Buffer => buildZip({ entries: [agent, ...entries] });
const MARKER = 'MARKER';

const fakeEndInsideData = (): Buffer => {
  const build = (commentLength: number): Buffer =>
    zip({ name: 'notes.bin', method: 0, data: Buffer.concat([Buffer.from(MARKER), endRecord({ commentLength })]) });
  const draft = build(0);
  const fakeAt = draft.indexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  return build(draft.length - fakeAt - 22);
};

const ALIAS_BOMB = [
  '---',
  'id: bomb',
  'a: &a ["x","x","x","x","x","x","x","x","x"]',
  'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
  'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
  'd: [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
  '---',
  'Body.',
].join('\n');

const cases: Record<ArchiveGuard, readonly GuardCase[]> = {
  'too-large': [{ title: 'an upload one byte over the maximum archive size', archive: () => zip(), limits: { maxArchiveBytes: zip().length - 1 } }],
  empty: [{ title: 'a zero-byte upload', archive: () => Buffer.alloc(0) }],
  'not-a-zip': [
    { title: 'a text file', archive: () => Buffer.from(`${MARKER}: definitely not an archive\n`) },
    { title: 'a PNG header', archive: () => Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]) },
  ],
  truncated: [
    { title: 'an archive cut in half', archive: () => zip({ name: `${MARKER}.md`, data: 'hello' }).subarray(0, 60) },
    {
      title: 'an archive whose end-record comment is cut short',
      archive: () => {
        const whole = buildZip({ entries: [agent], comment: 'a comment of some length' });
        return whole.subarray(0, whole.length - 5);
      },
    },
  ],
  'trailing-data': [{ title: 'bytes after the end record', archive: () => Buffer.concat([zip(), Buffer.from(`${MARKER} trailing`)]) }],
  'fake-eocd': [
    {
      title: 'a second self-consistent end record inside the comment',
      archive: () => {
        const honest = zip();
        const directorySize = honest.readUInt32LE(honest.length - 10);
        const directoryOffset = honest.readUInt32LE(honest.length - 6);
        return buildZip({ entries: [agent], comment: endRecord({ entryCount: 1, directorySize, directoryOffset }) });
      },
    },
    { title: 'a self-consistent end record hidden inside entry data', archive: fakeEndInsideData },
    { title: 'an end record promising more entries than the directory holds', archive: () => buildZip({ entries: [agent], end: { entryCount: 2 } }) },
    { title: 'an end record placing the directory past itself', archive: () => buildZip({ entries: [agent], end: { directoryOffset: 9_999 } }) },
    {
      title: 'a directory holding records the entry count hides',
      archive: () => {
        const built = buildZip({ entries: [agent, { name: `${MARKER}.md`, data: 'hidden' }] });
        built.writeUInt16LE(1, built.length - 14);
        built.writeUInt16LE(1, built.length - 12);
        return built;
      },
    },
  ],
  'leading-data': [
    { title: 'two archives concatenated', archive: () => Buffer.concat([zip({ name: `${MARKER}.md`, data: 'first' }), zip()]) },
    { title: 'a stub before the first local header', archive: () => buildZip({ entries: [agent], prefix: Buffer.from(`#!/bin/sh\necho ${MARKER}\n`) }) },
  ],
  'unaccounted-data': [
    { title: 'a gap between two entries', archive: () => buildZip({ entries: [{ ...agent, paddingAfter: Buffer.from(MARKER) }, { name: 'b.md', data: 'b' }] }) },
    { title: 'bytes between the central directory and the end record', archive: () => buildZip({ entries: [agent], afterDirectory: Buffer.from(MARKER) }) },
    { title: 'bytes after a data descriptor', archive: () => zip({ name: 'a.md', data: 'a', dataDescriptor: 'signed', paddingAfter: Buffer.alloc(16, 1) }) },
  ],
  'malformed-archive': [
    { title: 'a multi-volume archive', archive: () => buildZip({ entries: [agent], end: { disk: 1 } }) },
    { title: 'a zip64 locator naming two disks', archive: () => buildZip({ entries: [agent], zip64End: true, zip64: { totalDisks: 2 } }) },
    { title: 'an extra field longer than its record', archive: () => zip({ name: 'a.md', data: 'a', centralExtra: Buffer.from([0x99, 0x99, 0xff, 0x00]) }) },
  ],
  'too-many-entries': [
    { title: 'one entry more than allowed', archive: () => zip({ name: 'a.md', data: 'a' }, { name: 'b.md', data: 'b' }), limits: { maxEntryCount: 2 } },
    { title: 'a zip64 end record claiming 2^40 entries', archive: () => buildZip({ entries: [agent], zip64End: true, zip64: { entryCount: 2n ** 40n } }) },
  ],
  'expands-too-far': [
    { title: 'one entry declaring more than the total limit', archive: () => zip({ name: 'big.txt', data: 'x'.repeat(2000) }), limits: { maxTotalUncompressedBytes: 1000 } },
    {
      title: 'entries whose declared total exceeds the limit',
      archive: () => zip({ name: 'a.txt', data: 'a'.repeat(600) }, { name: 'b.txt', data: 'b'.repeat(600) }),
      limits: { maxTotalUncompressedBytes: 1000 },
    },
    {
      title: 'a zip64 entry declaring 2^62 bytes',
      archive: () => buildZip({ entries: [agent, { name: `${MARKER}.bin`, data: 'tiny', zip64: true, declared: { uncompressedSize: 2n ** 62n } }], zip64End: true }),
    },
  ],
  'compression-ratio': [
    {
      title: 'one entry past 1 MiB at a ratio near 1000, hidden beside incompressible data',
      archive: () => zip({ name: 'zeros.bin', data: Buffer.alloc(2 * 1024 * 1024) }, { name: 'noise.bin', data: noise(3 * 1024 * 1024), method: 0 }),
    },
    {
      title: 'many entries under 1 MiB that together expand a thousandfold',
      archive: () => zip(...Array.from({ length: 12 }, (_, i) => ({ name: `part-${i}.bin`, data: Buffer.alloc(1_000_000) }))),
    },
  ],
  'overlapping-entries': [
    {
      title: 'twenty central entries sharing one deflated blob',
      archive: () => {
        const kernel = 'A'.repeat(50_000);
        const copies = Array.from({ length: 19 }, (_, i): ZipEntrySpec => ({ name: `copy-${i}.txt`, data: kernel, sharesLocalRecordOf: 1 }));
        return zip({ name: 'kernel.txt', data: kernel }, ...copies);
      },
    },
    {
      title: 'entry data that runs into the central directory',
      archive: () => zip({ name: 'a.txt', data: 'hello', declared: { compressedSize: 'hello'.length + 200 } }),
    },
    { title: 'a local header offset inside the central directory', archive: () => zip({ name: 'a.txt', data: 'hello', localHeaderOffset: 10_000 }) },
  ],
  'header-mismatch': [
    { title: 'a local header naming a different file', archive: () => zip({ name: 'README.md', data: 'hi', local: { name: `${MARKER}.md` } }) },
    { title: 'a local header with another method', archive: () => zip({ name: 'a.txt', data: 'hello hello', local: { method: 0 } }) },
    { title: 'a local header reading a non-ASCII name without the UTF-8 flag', archive: () => zip({ name: 'café.md', data: 'x', local: { flags: 0 } }) },
    { title: 'a data-descriptor flag with no descriptor', archive: () => zip({ name: 'a.txt', data: 'hello', flags: 0x0008 }) },
    { title: 'a central offset that is not a local header', archive: () => zip({ name: 'a.txt', data: 'hello', localHeaderOffset: 3 }) },
  ],
  'size-mismatch': [
    { title: 'a header declaring 10 bytes for 100 KB of data', archive: () => zip({ name: 'big.txt', data: 'z'.repeat(100_000), declared: { uncompressedSize: 10 } }) },
    {
      title: 'a data descriptor (bit 3) declaring 10 bytes for 100 KB of data',
      archive: () => zip({ name: 'big.txt', data: 'z'.repeat(100_000), dataDescriptor: 'signed', declared: { uncompressedSize: 10 } }),
    },
    { title: 'a data descriptor disagreeing with the central directory', archive: () => zip({ name: 'a.txt', data: 'hello', dataDescriptor: 'unsigned', descriptor: { uncompressedSize: 4 } }) },
    { title: 'a stored entry whose sizes differ', archive: () => zip({ name: 'a.txt', data: 'hello', method: 0, declared: { uncompressedSize: 3 } }) },
    { title: 'a local header disagreeing on sizes', archive: () => zip({ name: 'a.txt', data: 'hello', local: { uncompressedSize: 1 } }) },
    { title: 'a header declaring more bytes than the data holds', archive: () => zip({ name: 'a.txt', data: 'hello', declared: { uncompressedSize: 1000 } }) },
    { title: 'bytes hidden after the deflate stream', archive: () => zip({ name: 'a.txt', data: 'hello', compressed: Buffer.concat([deflate('hello'), Buffer.from(MARKER)]) }) },
    { title: 'a directory entry with content', archive: () => zip({ name: 'dir/', data: 'x', method: 0 }) },
  ],
  'crc-mismatch': [
    { title: 'data that does not match the declared CRC', archive: () => zip({ name: 'a.txt', data: 'hello', declared: { crc: 0xdeadbeef } }) },
    { title: 'a local header with another CRC', archive: () => zip({ name: 'a.txt', data: 'hello', local: { crc: 1 } }) },
    { title: 'a data descriptor with another CRC', archive: () => zip({ name: 'a.txt', data: 'hello', dataDescriptor: 'signed', descriptor: { crc: 1 } }) },
  ],
  'corrupt-data': [
    { title: 'deflate data that is garbage', archive: () => zip({ name: 'a.txt', method: 8, compressed: Buffer.from([0xff, 0xff, 0xff, 0xff]), declared: { uncompressedSize: 10 } }) },
    { title: 'a deflate stream cut short', archive: () => zip({ name: 'a.txt', method: 8, compressed: deflate('hello world').subarray(0, 4), declared: { uncompressedSize: 11 } }) },
  ],
  'encrypted-entry': [
    { title: 'the traditional encryption flag', archive: () => zip({ name: `${MARKER}.md`, data: 'secret', flags: 0x0001 }) },
    { title: 'the strong encryption flag', archive: () => zip({ name: `${MARKER}.md`, data: 'secret', flags: 0x0041 }) },
    { title: 'an encrypted stored entry', archive: () => zip({ name: `${MARKER}.md`, data: 'secret', method: 0, flags: 0x0001 }) },
  ],
  'unsupported-method': [
    { title: 'method 99 (AES)', archive: () => zip({ name: 'a.txt', data: 'hello', method: 99, compressed: Buffer.from('hello') }) },
    { title: 'method 12 (bzip2)', archive: () => zip({ name: 'a.txt', data: 'hello', method: 12, compressed: Buffer.from('hello') }) },
    { title: 'the patched-data flag', archive: () => zip({ name: 'a.txt', data: 'hello', flags: 0x0020 }) },
  ],
  'zip-slip': [
    { title: 'a ../ entry', archive: () => zip({ name: `../${MARKER}.txt`, data: 'x' }) },
    { title: 'a deep traversal', archive: () => zip({ name: `docs/../../../../${MARKER}.txt`, data: 'x' }) },
    { title: 'a backslash traversal', archive: () => zip({ name: `..\\..\\${MARKER}.txt`, data: 'x' }) },
    { title: 'a trailing .. directory', archive: () => zip({ name: 'docs/../../', data: '' }) },
  ],
  'absolute-path': [
    { title: 'an absolute path', archive: () => zip({ name: `/tmp/${MARKER}.txt`, data: 'x' }) },
    { title: 'a drive letter', archive: () => zip({ name: `C:/${MARKER}.txt`, data: 'x' }) },
    { title: 'a drive-relative path', archive: () => zip({ name: `C:${MARKER}.txt`, data: 'x' }) },
    { title: 'a Windows drive path', archive: () => zip({ name: `C:\\${MARKER}.txt`, data: 'x' }) },
    { title: 'a UNC path', archive: () => zip({ name: `//server/share/${MARKER}.txt`, data: 'x' }) },
    { title: 'a backslash UNC path', archive: () => zip({ name: `\\\\server\\share\\${MARKER}.txt`, data: 'x' }) },
  ],
  'invalid-name': [
    { title: 'a NUL in a name', archive: () => zip({ name: `${MARKER}\u0000.txt`, data: 'x' }) },
    { title: 'a control character in a name', archive: () => zip({ name: `${MARKER}\u0007.txt`, data: 'x' }) },
    { title: 'a C1 control character in a name', archive: () => zip({ name: `${MARKER}\u0085.txt`, data: 'x' }) },
    { title: 'a backslash in a name', archive: () => zip({ name: `docs\\${MARKER}.txt`, data: 'x' }) },
    { title: 'an empty segment', archive: () => zip({ name: `docs//${MARKER}.txt`, data: 'x' }) },
    { title: 'a dot segment', archive: () => zip({ name: `docs/./${MARKER}.txt`, data: 'x' }) },
    { title: 'a leading dot segment', archive: () => zip({ name: `./${MARKER}.txt`, data: 'x' }) },
    { title: 'an empty name', archive: () => zip({ name: '', data: 'x' }) },
    { title: 'invalid UTF-8 under the UTF-8 flag', archive: () => zip({ name: Buffer.from([0x4d, 0xff, 0xfe, 0x2e, 0x6d, 0x64]), utf8: true, data: 'x' }) },
  ],
  'unicode-path-mismatch': [
    { title: 'a Unicode path naming another file', archive: () => zip({ name: 'notes.md', data: 'x', extra: unicodePathExtra('notes.md', `${MARKER}.md`) }) },
    { title: 'a Unicode path escaping the staging directory', archive: () => zip({ name: 'notes.md', data: 'x', extra: unicodePathExtra('notes.md', `../${MARKER}.md`) }) },
    { title: 'a Unicode path with a stale CRC', archive: () => zip({ name: 'notes.md', data: 'x', extra: unicodePathExtra('notes.md', 'notes.md', { crc: 1 }) }) },
    { title: 'a Unicode path of an unknown version', archive: () => zip({ name: 'notes.md', data: 'x', extra: unicodePathExtra('notes.md', 'notes.md', { version: 2 }) }) },
    {
      title: 'a local Unicode path disagreeing with the central one',
      archive: () =>
        zip({
          name: 'notes.md',
          data: 'x',
          centralExtra: unicodePathExtra('notes.md', 'notes.md'),
          localExtra: unicodePathExtra('notes.md', `${MARKER}.md`),
        }),
    },
  ],
  'path-too-long': [
    { title: 'a 256-byte component', archive: () => zip({ name: `${'a'.repeat(256)}.md`, data: 'x' }) },
    { title: 'a 256-byte multibyte component', archive: () => zip({ name: 'é'.repeat(128), data: 'x' }) },
    { title: 'a path over 1024 bytes', archive: () => zip({ name: Array.from({ length: 5 }, () => 'b'.repeat(250)).join('/'), data: 'x' }) },
  ],
  'duplicate-entry': [
    { title: 'the same name twice', archive: () => zip({ name: 'a.md', data: 'one' }, { name: 'a.md', data: 'two' }) },
    { title: 'names differing only in case', archive: () => zip({ name: 'README.md', data: 'one' }, { name: 'readme.md', data: 'two' }) },
    { title: 'names equal after NFC', archive: () => zip({ name: 'cafe\u0301.md', data: 'one' }, { name: 'caf\u00e9.md', data: 'two' }) },
    { title: 'names equal after full case folding', archive: () => zip({ name: 'straße.md', data: 'one' }, { name: 'STRASSE.md', data: 'two' }) },
    { title: 'two directories differing in case', archive: () => zip({ name: 'docs/' }, { name: 'DOCS/' }) },
  ],
  'name-conflict': [
    { title: 'a file that is also a directory', archive: () => zip({ name: 'a', data: 'file' }, { name: 'a/b.md', data: 'nested' }) },
    { title: 'a file and a directory entry of one name', archive: () => zip({ name: 'a', data: 'file' }, { name: 'a/' }) },
    { title: 'a file and a directory differing in case', archive: () => zip({ name: 'A', data: 'file' }, { name: 'a/b.md', data: 'nested' }) },
    { title: 'an entry under a symlink', archive: () => zip({ name: 'docs/x.md', data: 'x' }, symlinkEntry('link', 'docs'), { name: `link/${MARKER}.md`, data: 'through' }) },
  ],
  'entry-type-mismatch': [
    { title: 'a directory mode on a file name', archive: () => zip({ name: 'folder', unixMode: unixModes.directory }) },
    { title: 'a regular-file mode on a directory name', archive: () => zip({ name: 'folder/', unixMode: unixModes.file }) },
    { title: 'a DOS directory attribute on a file name', archive: () => zip({ name: 'a.md', data: 'x', versionMadeBy: 0x0014, externalAttributes: 0x10 }) },
  ],
  'special-file': [
    { title: 'a FIFO', archive: () => zip({ name: 'pipe', unixMode: unixModes.fifo }) },
    { title: 'a character device', archive: () => zip({ name: 'tty', unixMode: unixModes.charDevice }) },
    { title: 'a block device', archive: () => zip({ name: 'disk', unixMode: unixModes.blockDevice }) },
    { title: 'a socket', archive: () => zip({ name: 'socket', unixMode: unixModes.socket }) },
    { title: 'a symlink mode from a non-Unix host', archive: () => zip(symlinkEntry('link', 'AGENT.md', { versionMadeBy: 0x0014 })) },
  ],
  'escaping-symlink': [
    { title: 'a link climbing out', archive: () => zip(symlinkEntry('escape', `../../../../${MARKER}`)) },
    { title: 'an absolute link', archive: () => zip(symlinkEntry('escape', '/etc/passwd')) },
    { title: 'a chain whose last hop climbs out', archive: () => zip(symlinkEntry('a', 'b'), symlinkEntry('b', `../${MARKER}`)) },
    { title: 'a nested link climbing past the root', archive: () => zip({ name: 'docs/x.md', data: 'x' }, symlinkEntry('docs/up', '../../x')) },
    { title: 'a link through a linked directory climbing out', archive: () => zip({ name: 'd/x.md', data: 'x' }, symlinkEntry('dl', 'd'), symlinkEntry('e', 'dl/../../out')) },
  ],
  'symlink-loop': [
    { title: 'two links pointing at each other', archive: () => zip(symlinkEntry('a', 'b'), symlinkEntry('b', 'a')) },
    { title: 'a link pointing at itself', archive: () => zip(symlinkEntry('self', 'self')) },
    { title: 'a link to its own parent directory', archive: () => zip({ name: 'docs/x.md', data: 'x' }, symlinkEntry('docs/up', '..')) },
    { title: 'a link to the staging root', archive: () => zip(symlinkEntry('here', '.')) },
  ],
  'unresolvable-symlink': [
    { title: 'a dangling link', archive: () => zip(symlinkEntry('dangling', `${MARKER}.md`)) },
    { title: 'a link through a file', archive: () => zip(symlinkEntry('through', 'AGENT.md/x')) },
    { title: 'an empty link', archive: () => zip(symlinkEntry('empty', '')) },
    { title: 'a link with a backslash', archive: () => zip({ name: 'a/b.md', data: 'x' }, symlinkEntry('slash', 'a\\b.md')) },
    { title: 'a link target over 1024 bytes', archive: () => zip(symlinkEntry('long', 'a/'.repeat(600))) },
  ],
  'missing-agent-manifest': [
    { title: 'no AGENT.md at all', archive: () => buildZip({ entries: [{ name: 'README.md', data: 'hi' }] }) },
    { title: 'only a lowercase agent.md', archive: () => buildZip({ entries: [{ name: 'agent.md', data: '---\nid: x\n---\n' }] }) },
    { title: 'AGENT.md only in a subfolder', archive: () => buildZip({ entries: [{ name: 'sub/AGENT.md', data: '---\nid: x\n---\n' }] }) },
    { title: 'an archive with no entries', archive: () => buildZip({ entries: [] }) },
  ],
  'agent-manifest-not-regular': [
    { title: 'AGENT.md as a symlink', archive: () => buildZip({ entries: [{ name: 'README.md', data: '---\nid: x\n---\n' }, symlinkEntry('AGENT.md', 'README.md')] }) },
    { title: 'AGENT.md as a directory', archive: () => buildZip({ entries: [{ name: 'AGENT.md/' }] }) },
    { title: 'AGENT.md as an implied directory', archive: () => buildZip({ entries: [{ name: 'AGENT.md/inner.md', data: 'x' }] }) },
  ],
  'skill-manifest-not-regular': [
    { title: 'a SKILL.md symlink', archive: () => zip({ name: 'README.md', data: 'x' }, symlinkEntry('skills/x/SKILL.md', '../../README.md')) },
    { title: 'a SKILL.md directory', archive: () => zip({ name: 'skills/x/SKILL.md/' }) },
  ],
  'invalid-agent-manifest': [
    { title: 'an alias bomb in the front matter', archive: () => buildZip({ entries: [agentEntry(ALIAS_BOMB)] }) },
    { title: 'front matter that never closes', archive: () => buildZip({ entries: [agentEntry(`---\nid: ${MARKER}\nno closing line\n`)] }) },
    { title: 'front matter that is a list', archive: () => buildZip({ entries: [agentEntry('---\n- a\n- b\n---\nBody.\n')] }) },
    { title: 'allowed-tools as a mapping', archive: () => buildZip({ entries: [agentEntry('---\nid: x\nallowed-tools:\n  clock: yes\n---\n')] }) },
    { title: 'a custom YAML tag', archive: () => buildZip({ entries: [agentEntry('---\nid: !!js/function "function () {}"\n---\n')] }) },
    { title: 'duplicate front-matter keys', archive: () => buildZip({ entries: [agentEntry('---\nid: a\nid: b\n---\n')] }) },
    { title: 'AGENT.md that is not UTF-8', archive: () => buildZip({ entries: [agentEntry(Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0xfe, 0x0a, 0x2d, 0x2d, 0x2d, 0x0a]).toString('latin1'))] }) },
    { title: 'AGENT.md over 1 MiB', archive: () => buildZip({ entries: [{ name: 'AGENT.md', method: 0, data: `---\nid: x\n---\n${'y'.repeat(1024 * 1024)}` }] }) },
  ],
  'unresolvable-agent-id': [
    { title: 'AGENT.md without front matter, despite an upload name', archive: () => buildZip({ entries: [agentEntry('Just a prompt.\n')] }), uploadName: `${MARKER}.zip` },
    { title: 'front matter without id or name and no upload name', archive: () => buildZip({ entries: [agentEntry('---\ndescription: nameless\n---\nBody.\n')] }) },
    { title: 'an id with a control character', archive: () => buildZip({ entries: [agentEntry('---\nid: "bad\\u0007id"\n---\n')] }) },
    { title: 'an id over 200 characters', archive: () => buildZip({ entries: [agentEntry(`---\nid: ${'i'.repeat(201)}\n---\n`)] }) },
    { title: 'an upload name that is only an extension', archive: () => buildZip({ entries: [agentEntry('---\n---\nBody.\n')] }), uploadName: '.zip' },
  ],
};

let sandbox: StagingSandbox;
beforeEach(async () => {
  sandbox = await createStagingSandbox();
});
afterEach(async () => {
  await sandbox.remove();
});

describe('archive guards', () => {
  it('covers every guard with at least one hostile archive', () => {
    expect(Object.keys(cases).sort()).toEqual([...archiveGuards].sort());
    for (const guard of archiveGuards) expect(cases[guard].length).toBeGreaterThan(0);
  });

  it('gives every guard a fixed detail that names it and nothing else', () => {
    for (const guard of archiveGuards) {
      expect(archiveGuardDetail(guard)).toMatch(new RegExp(`^The archive was rejected by the ${guard} guard: [^\\n]+\\.$`));
    }
    expect(archiveGuardDetail('zip-slip')).toBe('The archive was rejected by the zip-slip guard: an entry would be written outside the staging directory.');
  });

  const table = archiveGuards.flatMap((guard) => cases[guard].map((entry) => ({ guard, ...entry })));
  it.each(table)('refuses $title with the $guard guard, leaving nothing behind', async ({ guard, archive, limits, uploadName }) => {
    const zipPath = await sandbox.writeUpload(archive());
    const before = await sandbox.snapshot();
    const error: unknown = await stageArchive({ zipPath, stagingRoot: sandbox.stagingRoot, uploadName }, { ...specDefaultLimits, ...limits }).then(
      () => null,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(ArchiveRejected);
    const rejected = error as ArchiveRejected;
    expect(rejected.guard).toBe(guard);
    // The guard's fixed sentence, and for AGENT.md at most a hint of where (never its content).
    expect(rejected.detail.startsWith(archiveGuardDetail(guard).slice(0, -1))).toBe(true);
    if (guard !== 'invalid-agent-manifest') expect(rejected.detail).toBe(archiveGuardDetail(guard));
    expect(rejected.message).toBe(rejected.detail);
    expect(rejected.detail).not.toContain(MARKER);
    expect(await readdir(sandbox.stagingRoot)).toEqual([]);
    expect(await sandbox.snapshot()).toEqual(before);
  });
});
