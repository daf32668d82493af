// Reads a bundle upload from a multipart request into a file, never holding it in memory: the first
// part must be the file field `file`; further parts are read (and a second file drained) while the
// archive streams in — a file part nobody reads would stall the parser and with it the whole body — and
// a second file makes the upload ambiguous (refused, never ignored). The whole body is metered, so the
// cap also holds for bytes after the file part. Resolves with the uploaded file name, if any.
import type { MultipartFile } from '@fastify/multipart';
import type { IncomingMessage } from 'node:http';
import { isProblemError, ProblemError } from '../../platform/problems/index.js';
import { ArchiveRejected } from '../archive/index.js';
import { uploadFieldMissing, uploadHasSeveralFiles } from '../problems.js';
import { meterRequestBody } from './body-meter.js';
import { MULTIPART_ENVELOPE_BYTES, receiveUpload } from './receive-upload.js';

export interface MultipartUpload {
  /** The request's file parts, as @fastify/multipart hands them out. */
  readonly files: AsyncIterableIterator<MultipartFile>;
  /** The raw request whose body is metered. */
  readonly raw: IncomingMessage;
  readonly maxArchiveBytes: number;
}

const malformed = (cause: unknown): ProblemError => new ProblemError('validation-failed', 'The multipart body is malformed or ended early.', { cause });

export async function readMultipartUpload(upload: MultipartUpload, target: string): Promise<string | undefined> {
  const { maxArchiveBytes } = upload;
  const files = upload.files[Symbol.asyncIterator]();
  const pending = files.next();
  const body = meterRequestBody(upload.raw, maxArchiveBytes + MULTIPART_ENVELOPE_BYTES, () => new ArchiveRejected('too-large'));
  try {
    const first = await pending.catch((cause: unknown) => {
      throw malformed(cause);
    });
    const part = first.done === true ? undefined : first.value;
    if (part === undefined || part.fieldname !== 'file') throw uploadFieldMissing();
    const extra = drainFurtherFiles(files);
    await receiveUpload({ file: part.file, target, maxArchiveBytes, body }).catch((cause: unknown) => {
      if (cause instanceof ArchiveRejected || isProblemError(cause) || hasSyscall(cause)) throw cause;
      throw malformed(cause);
    });
    const further = await extra;
    if (further === 'several-files') throw uploadHasSeveralFiles();
    if (further !== 'none') throw malformed(further.error);
    return part.filename === '' ? undefined : part.filename;
  } finally {
    body.stop();
  }
}

/** Reads the file parts after the first to the end of the body, draining each; never rejects. */
async function drainFurtherFiles(files: AsyncIterator<MultipartFile>): Promise<'none' | 'several-files' | { readonly error: unknown }> {
  let several = false;
  try {
    for (let next = await files.next(); next.done !== true; next = await files.next()) {
      several = true;
      next.value.file.resume();
    }
    return several ? 'several-files' : 'none';
  } catch (error) {
    // Past the parser's file limit the extra parts are skipped and reported as this error.
    return several || (error as { code?: unknown } | null)?.code === 'FST_FILES_LIMIT' ? 'several-files' : { error };
  }
}

function hasSyscall(error: unknown): boolean {
  return typeof (error as { syscall?: unknown } | null)?.syscall === 'string';
}
