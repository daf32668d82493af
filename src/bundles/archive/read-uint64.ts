// A zip64 field as a number. Values past 2^53 lose precision but stay far past every limit and every
// file size, so comparisons against them still reject.
export function readUInt64(bytes: Buffer, offset: number): number {
  return Number(bytes.readBigUInt64LE(offset));
}
