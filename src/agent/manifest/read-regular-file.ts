// Reads a bounded UTF-8 text file that must be a regular file: the last component is opened with
// O_NOFOLLOW (a symlink is refused, not followed) and O_NONBLOCK (a FIFO cannot hang the reader),
// then checked with fstat. Never reads more than `maxBytes` + 1 bytes.
import { isUtf8 } from 'node:buffer';
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

export type RegularFileRead =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'missing' }
  | { readonly kind: 'not-regular' }
  | { readonly kind: 'too-large' }
  | { readonly kind: 'not-utf8' };

const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

export async function readRegularFile(path: string, maxBytes: number): Promise<RegularFileRead> {
  let handle;
  try {
    handle = await open(path, READ_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    if (code === 'ELOOP' || code === 'EISDIR') return { kind: 'not-regular' };
    throw error;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return { kind: 'not-regular' };
    if (stats.size > maxBytes) return { kind: 'too-large' };
    // One byte more than the file claims: filling it means the file is larger than it said.
    const buffer = Buffer.alloc(stats.size + 1);
    let filled = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
      if (filled === buffer.length) return { kind: 'too-large' };
    }
    const bytes = buffer.subarray(0, filled);
    if (!isUtf8(bytes)) return { kind: 'not-utf8' };
    const text = bytes.toString('utf8');
    return { kind: 'text', text: text.startsWith('\uFEFF') ? text.slice(1) : text };
  } finally {
    await handle.close();
  }
}
