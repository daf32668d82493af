// CRC-32 (IEEE 802.3), incremental, for verifying entry data as it streams. yauzl checks sizes but not
// checksums. Node's native zlib.crc32 (20.15+) is used when present, a table-driven fallback otherwise.
import * as zlib from 'node:zlib';

const TABLE = ((): Uint32Array => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function tableCrc32(data: Uint8Array, previous = 0): number {
  let crc = ~previous >>> 0;
  for (const byte of data) crc = (TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return ~crc >>> 0;
}

const native = typeof zlib.crc32 === 'function' ? zlib.crc32 : undefined;

/** CRC-32 of `data`, continuing from `previous` (the CRC of everything before it). */
export function crc32(data: Uint8Array, previous = 0): number {
  return native === undefined ? tableCrc32(data, previous) : native(data, previous);
}
