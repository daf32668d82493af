// Remembers principals of already verified tokens until their `exp`, so a repeated token skips the
// signature check. Bounded LRU keyed by token digest; expiry judged with the injected clock.
import { LRUCache } from 'lru-cache';
import type { Clock } from '../clock/index.js';
import type { Principal } from './principal.js';

export const DEFAULT_TOKEN_CACHE_SIZE = 10_000;

interface CachedPrincipal {
  readonly principal: Principal;
  readonly expiresAtMs: number;
}

export class TokenCache {
  readonly #clock: Clock;
  readonly #entries: LRUCache<string, CachedPrincipal>;

  constructor(options: { clock: Clock; maxEntries?: number }) {
    this.#clock = options.clock;
    this.#entries = new LRUCache({ max: options.maxEntries ?? DEFAULT_TOKEN_CACHE_SIZE });
  }

  /** The principal for a verified, unexpired token digest; an expired entry is dropped. */
  get(digest: string): Principal | undefined {
    const entry = this.#entries.get(digest);
    if (entry === undefined) return undefined;
    // Same boundary as jose's `exp` check: expired once now reaches exp.
    if (this.#clock.now() >= entry.expiresAtMs) {
      this.#entries.delete(digest);
      return undefined;
    }
    return entry.principal;
  }

  set(digest: string, principal: Principal, expiresAtMs: number): void {
    if (this.#clock.now() >= expiresAtMs) return;
    this.#entries.set(digest, { principal, expiresAtMs });
  }

  get size(): number {
    return this.#entries.size;
  }

  clear(): void {
    this.#entries.clear();
  }
}
