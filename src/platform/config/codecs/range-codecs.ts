// The start-up ranges DESIGN.md §2 sets: every count and size ≥ 1, concurrency caps ≤ 100,000,
// rate limits ≤ 1,000,000 per minute; timeouts in seconds are any positive number.
import { integerCodec, numberCodec } from './number-codecs.js';

/** Counts and byte sizes. */
export const countCodec = integerCodec({ min: 1 });
export const concurrencyCapCodec = integerCodec({ min: 1, max: 100_000 });
export const permitsPerMinuteCodec = integerCodec({ min: 1, max: 1_000_000 });
export const secondsCodec = numberCodec({ min: 0, minExclusive: true });
