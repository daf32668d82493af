// Sits between decompression and the disk. Counts and checksums the bytes of one entry as they pass,
// and stops the entry the moment it outgrows its declared size or the archive outgrows the expansion
// limit; at the end the entry must have exactly its declared size and CRC-32. EntryCount is the
// arithmetic; EntryMeter applies it to a stream, and the small-entry path applies it to one buffer.
import { Transform, type TransformCallback } from 'node:stream';
import { ArchiveRejected } from './archive-rejected.js';
import { crc32 } from 'node:zlib';
import type { ExpansionBudget } from './expansion-budget.js';

export interface MeteredEntry {
  readonly uncompressedSize: number;
  readonly crc32: number;
}

export class EntryCount {
  readonly #entry: MeteredEntry;
  readonly #budget: ExpansionBudget;
  #written = 0;
  #crc = 0;

  constructor(entry: MeteredEntry, budget: ExpansionBudget) {
    this.#entry = entry;
    this.#budget = budget;
  }

  /** Counts a piece of the entry's output; the refusal when it breaks a limit. */
  take(chunk: Buffer): ArchiveRejected | null {
    this.#written += chunk.length;
    this.#budget.written += chunk.length;
    if (this.#written > this.#entry.uncompressedSize) return new ArchiveRejected('size-mismatch');
    if (this.#budget.written > this.#budget.max) return new ArchiveRejected('expands-too-far');
    this.#crc = crc32(chunk, this.#crc);
    return null;
  }

  /** The refusal when the whole output is not exactly the declared size and CRC. */
  finish(): ArchiveRejected | null {
    if (this.#written !== this.#entry.uncompressedSize) return new ArchiveRejected('size-mismatch');
    if (this.#crc !== this.#entry.crc32) return new ArchiveRejected('crc-mismatch');
    return null;
  }
}

export class EntryMeter extends Transform {
  readonly #count: EntryCount;

  constructor(entry: MeteredEntry, budget: ExpansionBudget) {
    super();
    this.#count = new EntryCount(entry, budget);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    const refused = this.#count.take(chunk);
    if (refused !== null) return callback(refused);
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    callback(this.#count.finish());
  }
}
