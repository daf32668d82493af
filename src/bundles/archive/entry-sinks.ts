// Where a metered entry's bytes go: an already-open file (opened O_EXCL|O_NOFOLLOW by the caller), or
// memory for the few bytes of a symlink target. Write failures are wrapped so they are never taken
// for a guard.
import type { FileHandle } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { StagingWriteFailed } from './staging-write-failed.js';

export function fileSink(handle: FileHandle): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, callback): void {
      handle.write(chunk).then(
        () => callback(),
        (error: unknown) => callback(new StagingWriteFailed(error)),
      );
    },
  });
}

export function memorySink(): { readonly sink: Writable; readonly bytes: () => Buffer } {
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback): void {
      chunks.push(chunk);
      callback();
    },
  });
  return { sink, bytes: () => Buffer.concat(chunks) };
}
