// Injected time and ids: nothing that decides an expiry reads the wall clock directly, so tests
// drive TTLs with a fake clock instead of sleeps.
import { randomBytes, randomUUID } from 'node:crypto';

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = Object.freeze({ now: () => Date.now() });

/** A clock that only moves when told to; for tests and deterministic engines. */
export class ManualClock implements Clock {
  #now: number;
  constructor(start = Date.UTC(2026, 0, 1)) {
    this.#now = start;
  }
  now(): number {
    return this.#now;
  }
  advance(ms: number): void {
    this.#now += ms;
  }
  set(ms: number): void {
    this.#now = ms;
  }
}

export interface IdGenerator {
  /** An opaque, unguessable, URL-safe id (handles, job ids). */
  opaque(): string;
  /** An RFC 4122 v4 UUID (workflow ids). */
  uuid(): string;
}

const OPAQUE_ID_BYTES = 18;
const IDS_PER_DRAW = 128;
let pool = Buffer.alloc(0);
let offset = 0;

/**
 * 18 bytes from the CSPRNG as base64url (24 characters). The bytes are drawn 128 ids at a time (as
 * randomUUID does): one randomBytes call per id was a measurable share of an eval case (every agent
 * message has one). Each byte is used once and zeroed once its id is made.
 *
 * The first character is a letter or digit: an id that began with `-` (1 in 32 did) was taken for an
 * option by a command line (`portcullis eval run --subject-handle -7zQ…` refused it as ambiguous). The
 * first byte's top six bits are the first character; the two values that spell `-` and `_` (62, 63)
 * lose their top bit (30, 31: `e`, `f`). The id keeps more than 143 random bits.
 */
function opaqueId(): string {
  if (offset + OPAQUE_ID_BYTES > pool.length) {
    pool = randomBytes(OPAQUE_ID_BYTES * IDS_PER_DRAW);
    offset = 0;
  }
  if (pool[offset]! >= 248) pool[offset] = pool[offset]! - 128;
  const id = pool.toString('base64url', offset, offset + OPAQUE_ID_BYTES);
  pool.fill(0, offset, offset + OPAQUE_ID_BYTES);
  offset += OPAQUE_ID_BYTES;
  return id;
}

export const randomIds: IdGenerator = Object.freeze({
  opaque: opaqueId,
  uuid: () => randomUUID(),
});

/** Deterministic ids for tests: `${prefix}-1`, `${prefix}-2`, … */
export function sequentialIds(prefix = 'id'): IdGenerator {
  let n = 0;
  return {
    opaque: () => `${prefix}-${++n}`,
    uuid: () => {
      n += 1;
      return `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
    },
  };
}
