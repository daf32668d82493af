// Runs on the staging writer's thread (staging-writer.ts): writes one batch of small staged files, in
// order, each opened as staging opens every file (staged-file.ts), written whole and closed, with
// synchronous calls. One thread writing one file after another did the same work as four lanes of
// promise round trips in 80 % of the wall time and half the CPU (bench/staging-writes). The first
// failure ends the batch; its message (which names the path) becomes the batch's failure.
import { closeSync, openSync, writeSync } from 'node:fs';
import { STAGED_FILE_FLAGS, STAGED_FILE_MODE } from './staged-file.js';

/** The files' paths and sizes, and their contents back to back in one buffer. */
export interface StagingWriteBatch {
  readonly paths: readonly string[];
  readonly sizes: readonly number[];
  readonly data: Uint8Array;
}

export function handle(request: unknown): unknown {
  const { paths, sizes, data } = request as StagingWriteBatch;
  let offset = 0;
  for (let index = 0; index < paths.length; index += 1) {
    const end = offset + sizes[index]!;
    const fd = openSync(paths[index]!, STAGED_FILE_FLAGS, STAGED_FILE_MODE);
    try {
      for (let at = offset; at < end; ) at += writeSync(fd, data, at, end - at);
    } finally {
      closeSync(fd);
    }
    offset = end;
  }
  return paths.length;
}
