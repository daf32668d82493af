// Declares a key table: the rows keep their literal types (key paths, codecs, targets), from which
// config-from-keys.ts computes the configuration type, and each row's default must be written the way
// its own codec reads it (a TimeSpan as text, an enum as one of its names), or the table does not compile.
import type { Codec } from './codecs/codec.js';
import type { KeyEntry, RawDefault } from './key-entry.js';

/** The row as its own codec constrains it: a default of the codec's `Written` type. */
type Paired<Row> = Row extends { readonly codec: Codec<infer T, infer Written extends RawDefault> } ? KeyEntry<T, Written> : never;

export function defineKeys<const Rows extends readonly KeyEntry[]>(rows: { readonly [I in keyof Rows]: Rows[I] & Paired<Rows[I]> }): Rows {
  return rows;
}
