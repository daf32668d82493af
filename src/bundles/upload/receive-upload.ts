// Streams an uploaded archive to a file, never holding it in memory: the file part may be at most
// MaxArchiveBytes and the whole request body (metered separately) at most 64 KiB more; anything
// larger is the archive guard "too large" (400, never 413). Resolves only once the whole body has
// arrived, so the body cap also holds for bytes after the file part.
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ArchiveRejected } from '../archive/index.js';
import type { BodyMeter } from './body-meter.js';

/** Room the multipart envelope (boundaries, part headers, small fields) may take beside the file. */
export const MULTIPART_ENVELOPE_BYTES = 64 * 1024;

export interface ReceiveUploadInput {
  readonly file: Readable;
  readonly target: string;
  readonly maxArchiveBytes: number;
  readonly body: BodyMeter;
}

/** The number of bytes written to `target`. */
export async function receiveUpload(input: ReceiveUploadInput): Promise<number> {
  const { file, target, maxArchiveBytes, body } = input;
  let fileBytes = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      fileBytes += chunk.length;
      callback(fileBytes > maxArchiveBytes ? new ArchiveRejected('too-large') : null, chunk);
    },
  });
  const out = createWriteStream(target, { mode: 0o600 });
  try {
    await pipeline(file, meter, out, { signal: body.signal });
    await body.ended();
    return fileBytes;
  } catch (error) {
    // A refusal can come before the file's asynchronous open has even created it: wait until the
    // stream has closed its descriptor, so the caller's clean-up removes a file that already exists.
    if (!out.closed) await once(out, 'close');
    throw body.signal.aborted ? (body.signal.reason as Error) : error;
  }
}
