import { randomBytes } from 'node:crypto';
import { open, writeFile, mkdtemp, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ARCHIVE_BLOCK_BYTES, ArchiveReader } from './archive-reader.js';

let dir: string;
let handle: FileHandle;
const bytes = randomBytes(ARCHIVE_BLOCK_BYTES * 40 + 123);

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'portcullis-reader-'));
  await writeFile(join(dir, 'a.zip'), bytes);
  handle = await open(join(dir, 'a.zip'), 'r');
});
afterEach(async () => {
  await handle.close();
  await rm(dir, { recursive: true, force: true });
});

async function readVia(reader: ArchiveReader, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await reader.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

describe('ArchiveReader', () => {
  it('reads what the file holds, across block boundaries, and short at the end', async () => {
    const reader = new ArchiveReader(handle, bytes.length);
    const edge = ARCHIVE_BLOCK_BYTES - 10;
    expect((await readVia(reader, edge, 30)).equals(bytes.subarray(edge, edge + 30))).toBe(true);
    expect((await readVia(reader, 5, ARCHIVE_BLOCK_BYTES * 2)).equals(bytes.subarray(5, 5 + ARCHIVE_BLOCK_BYTES * 2))).toBe(true);
    expect((await readVia(reader, bytes.length - 4, 100)).equals(bytes.subarray(bytes.length - 4))).toBe(true);
    expect(await readVia(reader, bytes.length + 10, 8)).toHaveLength(0);
  });

  it('yields a range in pieces that join to exactly its bytes', async () => {
    const reader = new ArchiveReader(handle, bytes.length);
    const pieces: Buffer[] = [];
    for await (const piece of reader.range(100, ARCHIVE_BLOCK_BYTES * 3 + 7)) pieces.push(piece);
    expect(Buffer.concat(pieces).equals(bytes.subarray(100, ARCHIVE_BLOCK_BYTES * 3 + 7))).toBe(true);
  });

  it('serves small reads from a cached block, and keeps a bounded number of blocks', async () => {
    const read = vi.spyOn(handle, 'read');
    const reader = new ArchiveReader(handle, bytes.length);
    for (let at = 0; at < 1000; at += 46) await readVia(reader, at, 46);
    expect(read).toHaveBeenCalledTimes(1);
    for (let block = 1; block <= 32; block += 1) await readVia(reader, block * ARCHIVE_BLOCK_BYTES, 4);
    await readVia(reader, 0, 4);
    expect(read).toHaveBeenCalledTimes(34);
  });
});
