// Sits between decompression and the disk. Counts and checksums the bytes of one entry as they pass,
// and stops the stream the moment the entry outgrows its declared size or the archive outgrows the
// expansion limit; at the end the entry must have exactly its declared size and CRC-32.
import { Transform, type TransformCallback } from 'node:stream';
import { ArchiveRejected } from './archive-rejected.js';
import { crc32 } from 'node:zlib';
import type { ExpansionBudget } from './expansion-budget.js';

export interface MeteredEntry {
  readonly uncompressedSize: number;
  readonly crc32: number;
}

export class EntryMeter extends Transform {
  readonly #entry: MeteredEntry;
  readonly #budget: ExpansionBudget;
  #written = 0;
  #crc = 0;

  constructor(entry: MeteredEntry, budget: ExpansionBudget) {
    super();
    this.#entry = entry;
    this.#budget = budget;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.#written += chunk.length;
    this.#budget.written += chunk.length;
    if (this.#written > this.#entry.uncompressedSize) return callback(new ArchiveRejected('size-mismatch'));
    if (this.#budget.written > this.#budget.max) return callback(new ArchiveRejected('expands-too-far'));
    this.#crc = crc32(chunk, this.#crc);
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    if (this.#written !== this.#entry.uncompressedSize) return callback(new ArchiveRejected('size-mismatch'));
    if (this.#crc !== this.#entry.crc32) return callback(new ArchiveRejected('crc-mismatch'));
    callback();
  }
}
