// Arrays: a JSON array, or index-keyed items from environment variables (the layer walk turns
// `Roots:0`, `Roots:1` into an array before this sees it). Null means the empty list. Each item is
// read by the item codec; the first bad item is reported by index.
import { accept, refuse, type Codec, type Decoded } from './codec.js';

export function listCodec<T, Written>(item: Codec<T, Written>): Codec<readonly T[], readonly Written[]> {
  return {
    display: `${item.display}[]`,
    list: true,
    decode(raw, context): Decoded<readonly T[]> {
      if (raw === null) return accept([]);
      if (!Array.isArray(raw)) return refuse(`must be an array of ${item.display} (JSON array, or items by index)`);
      const values: T[] = [];
      for (const [index, value] of (raw as readonly unknown[]).entries()) {
        const decoded = item.decode(value, context);
        if (!decoded.ok) return refuse(`item ${index} ${decoded.message}`);
        values.push(decoded.value);
      }
      return accept(values);
    },
  };
}
