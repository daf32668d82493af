import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { ArchiveRejected } from './archive-rejected.js';
import { crc32 } from 'node:zlib';
import { EntryMeter } from './entry-meter.js';
import type { ExpansionBudget } from './expansion-budget.js';

const CHUNK = Buffer.alloc(64 * 1024);

/** A source far larger than any declared size here (25 MiB), bounded so a broken meter fails, not hangs. */
function endless(): { source: Readable; pulled: () => number } {
  let pulled = 0;
  const source = new Readable({
    highWaterMark: CHUNK.length,
    read() {
      pulled += 1;
      this.push(pulled > 400 ? null : CHUNK);
    },
  });
  return { source, pulled: () => pulled };
}

function counter(): { sink: Writable; written: () => number } {
  let written = 0;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      written += chunk.length;
      callback();
    },
  });
  return { sink, written: () => written };
}

const guardOf = (error: unknown): string => (error instanceof ArchiveRejected ? error.guard : 'not rejected');

describe('EntryMeter', () => {
  it('stops an endless entry the moment it outgrows its declared size', async () => {
    const { source, pulled } = endless();
    const { sink, written } = counter();
    const budget: ExpansionBudget = { written: 0, max: Number.MAX_SAFE_INTEGER };
    const failure = await pipeline(source, new EntryMeter({ uncompressedSize: 100_000, crc32: 0 }, budget), sink).catch(guardOf);
    expect(failure).toBe('size-mismatch');
    expect(written()).toBeLessThanOrEqual(100_000);
    expect(pulled()).toBeLessThan(8);
  });

  it('stops the moment the archive outgrows the shared expansion budget', async () => {
    const budget: ExpansionBudget = { written: 900_000, max: 1_000_000 };
    const { source } = endless();
    const { sink, written } = counter();
    const failure = await pipeline(source, new EntryMeter({ uncompressedSize: 10_000_000, crc32: 0 }, budget), sink).catch(guardOf);
    expect(failure).toBe('expands-too-far');
    expect(written()).toBeLessThanOrEqual(100_000);
  });

  it('refuses an entry that ends short of its declared size', async () => {
    const budget: ExpansionBudget = { written: 0, max: 1_000 };
    const failure = await pipeline(Readable.from([Buffer.from('abc')]), new EntryMeter({ uncompressedSize: 4, crc32: crc32(Buffer.from('abc')) }, budget), counter().sink).catch(guardOf);
    expect(failure).toBe('size-mismatch');
  });

  it('refuses an entry whose checksum differs and passes one that matches', async () => {
    const budget: ExpansionBudget = { written: 0, max: 1_000 };
    const data = Buffer.from('checksummed');
    const wrong = await pipeline(Readable.from([data]), new EntryMeter({ uncompressedSize: data.length, crc32: 1 }, budget), counter().sink).catch(guardOf);
    expect(wrong).toBe('crc-mismatch');
    await expect(pipeline(Readable.from([data.subarray(0, 4), data.subarray(4)]), new EntryMeter({ uncompressedSize: data.length, crc32: crc32(data) }, budget), counter().sink)).resolves.toBeUndefined();
  });
});
