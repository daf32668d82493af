// Positional reads of raw archive bytes, for the structure checks yauzl does not make. Short at the
// end of the file rather than failing, so callers can tell a truncated archive from an I/O error.
import type { PositionalReader } from './archive-reader.js';

export async function readAt(handle: PositionalReader, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(Math.max(0, length));
  let filled = 0;
  while (filled < buffer.length) {
    const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}
