// Which text the storage port can keep as a key (a collection, owner id, record id, scope, item or blob
// key): PostgreSQL text cannot hold U+0000, node-postgres writes an unpaired surrogate as U+FFFD (so two
// different keys would meet in one row), and a btree entry is bounded. Both providers apply the same rule.

/** UTF-8 bytes of one key: four of them still fit one PostgreSQL index entry (about 2,700 bytes). */
export const MAX_KEY_BYTES = 512;

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether `text` survives the round trip through every provider unchanged. */
export function isStorableKey(text: string): boolean {
  // A UTF-16 code unit is at most three UTF-8 bytes: short keys need no byte count.
  if (text.length * 3 > MAX_KEY_BYTES && Buffer.byteLength(text, 'utf8') > MAX_KEY_BYTES) return false;
  return !text.includes('\u0000') && !UNPAIRED_SURROGATE.test(text);
}

/** A write under a key no provider can keep: a programming error, never a caller's (their ids are read, not written). */
export class UnstorableKeyError extends RangeError {
  override readonly name = 'UnstorableKeyError';
  constructor(field: string) {
    super(`the storage port cannot keep this ${field}: it holds U+0000 or an unpaired surrogate, or is over ${MAX_KEY_BYTES} UTF-8 bytes`);
  }
}
