// Reads the uploaded archive for staging through a small cache of 64 KiB blocks: the structure checks,
// the central-directory walk and the entry data all read it in small pieces, mostly in file order, and
// each read used to be a thread-pool round trip (about 10 per entry; 2,000 entries meant 20,000). Reads
// past the end come back short, as from a file. At most 32 blocks (2 MiB) are kept; a read longer than
// a block goes to the file directly. It never writes and never closes the file (its owner does).
import type { FileHandle } from 'node:fs/promises';

export const ARCHIVE_BLOCK_BYTES = 64 * 1024;
const MAX_CACHED_BLOCKS = 32;

/** The positional read every structure check uses; a FileHandle is one too. */
export interface PositionalReader {
  read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
}

export class ArchiveReader implements PositionalReader {
  readonly #handle: FileHandle;
  readonly size: number;
  // Map order is use order: the first block is the one to drop.
  readonly #blocks = new Map<number, Promise<Buffer>>();

  constructor(handle: FileHandle, size: number) {
    this.#handle = handle;
    this.size = size;
  }

  async read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }> {
    const end = Math.min(position + length, this.size);
    if (end - position > ARCHIVE_BLOCK_BYTES) return this.#handle.read(buffer, offset, end - position, position);
    let filled = 0;
    for (let at = position; at < end; ) {
      const index = Math.floor(at / ARCHIVE_BLOCK_BYTES);
      const block = await this.#block(index);
      const from = at - index * ARCHIVE_BLOCK_BYTES;
      const copied = block.copy(buffer, offset + filled, from, Math.min(block.length, from + (end - at)));
      if (copied === 0) break;
      filled += copied;
      at += copied;
    }
    return { bytesRead: Math.max(0, filled) };
  }

  /** The bytes from `start` up to `end` (clipped to the file), in pieces of at most one block. */
  async *range(start: number, end: number): AsyncGenerator<Buffer> {
    for (let at = start; at < Math.min(end, this.size); ) {
      const index = Math.floor(at / ARCHIVE_BLOCK_BYTES);
      const block = await this.#block(index);
      const from = at - index * ARCHIVE_BLOCK_BYTES;
      const piece = block.subarray(from, Math.min(block.length, from + (end - at)));
      if (piece.length === 0) return;
      yield piece;
      at += piece.length;
    }
  }

  #block(index: number): Promise<Buffer> {
    let block = this.#blocks.get(index);
    if (block !== undefined) {
      this.#blocks.delete(index);
    } else {
      block = this.#load(index);
      if (this.#blocks.size >= MAX_CACHED_BLOCKS) this.#blocks.delete(this.#blocks.keys().next().value as number);
    }
    this.#blocks.set(index, block);
    return block;
  }

  async #load(index: number): Promise<Buffer> {
    const start = index * ARCHIVE_BLOCK_BYTES;
    const buffer = Buffer.allocUnsafe(Math.max(0, Math.min(ARCHIVE_BLOCK_BYTES, this.size - start)));
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await this.#handle.read(buffer, filled, buffer.length - filled, start + filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return buffer.subarray(0, filled);
  }
}
