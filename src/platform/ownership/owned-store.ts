// The one ownership rule, by construction: every owned resource lives under its owner's key, so a
// lookup by another caller is the same miss as a lookup of an id that never existed. There is no
// code path that finds a foreign resource and then decides to hide it.
import type { TtlStore } from '../store/index.js';
import { ProblemError } from '../problems/index.js';

export interface Owner {
  readonly ownerId: string;
}

function ownedKey(owner: Owner, id: string): string {
  return `${owner.ownerId}\u0000${id}`;
}

export class OwnedStore<V> {
  readonly #store: TtlStore<V>;
  constructor(store: TtlStore<V>) {
    this.#store = store;
  }

  async find(owner: Owner, id: string): Promise<V | undefined> {
    return this.#store.get(ownedKey(owner, id));
  }

  /** The resource, or the given not-found problem: identical for foreign, unknown and expired ids. */
  async require(owner: Owner, id: string, notFoundDetail: string): Promise<V> {
    const value = await this.find(owner, id);
    if (value === undefined) throw new ProblemError('not-found', notFoundDetail);
    return value;
  }

  async put(owner: Owner, id: string, value: V, ttlMs: number): Promise<void> {
    await this.#store.set(ownedKey(owner, id), value, ttlMs);
  }

  async touch(owner: Owner, id: string, ttlMs: number): Promise<V | undefined> {
    return this.#store.touch(ownedKey(owner, id), ttlMs);
  }

  async remove(owner: Owner, id: string): Promise<boolean> {
    return this.#store.delete(ownedKey(owner, id));
  }

  async expiresAt(owner: Owner, id: string): Promise<number | undefined> {
    return this.#store.expiresAt(ownedKey(owner, id));
  }

  sweep(): Promise<V[]> {
    return this.#store.sweep();
  }
}
