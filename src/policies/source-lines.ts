// 1-based line numbers of a policy file from byte offsets, which is what Cedar's source locations
// are (UTF-8 bytes, not JavaScript string indexes).
export class SourceLines {
  readonly #starts: number[] = [0];

  constructor(readonly bytes: Buffer) {
    for (let i = 0; i < bytes.length; i += 1) if (bytes[i] === 0x0a) this.#starts.push(i + 1);
  }

  lineOf(byteOffset: number): number {
    let low = 0;
    let high = this.#starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((this.#starts[middle] ?? 0) <= byteOffset) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  }
}
