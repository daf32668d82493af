// RateWindows for one process: fixed windows opened at a key's first request, on the injected clock.
// Bounded memory: beyond maxKeys the oldest window is forgotten (that key starts afresh). Answers at
// once behind the port's promise; the platform's rate-limit hook takes the answer directly.
import type { Clock } from '../../clock/index.js';
import { RATE_WINDOW_MS, type RateDecision, type RateWindows } from '../rate-windows.js';

interface Window {
  readonly startedAt: number;
  count: number;
}

export class MemoryRateWindows implements RateWindows {
  readonly #clock: Clock;
  readonly #maxKeys: number;
  // Map order is window start order, so expired and oldest windows sit at the front.
  readonly #windows = new Map<string, Window>();
  /** No window expires before this (the front window's expiry, or earlier): until then none is looked at. */
  #firstExpiry = Number.POSITIVE_INFINITY;

  constructor(clock: Clock, maxKeys = 100_000) {
    this.#clock = clock;
    this.#maxKeys = maxKeys;
  }

  take(policy: string, key: string, permitsPerMinute: number): Promise<RateDecision> {
    return Promise.resolve(this.takeNow(policy, key, permitsPerMinute));
  }

  /** take, answered at once. */
  takeNow(policy: string, key: string, permitsPerMinute: number): RateDecision {
    const now = this.#clock.now();
    this.#dropExpired(now);
    const id = `${policy}\u0000${key}`;
    let window = this.#windows.get(id);
    if (window === undefined || now >= window.startedAt + RATE_WINDOW_MS) window = this.#open(id, now);
    if (window.count < permitsPerMinute) {
      window.count += 1;
      return { allowed: true, remaining: permitsPerMinute - window.count };
    }
    const untilReset = window.startedAt + RATE_WINDOW_MS - now;
    return { allowed: false, retryAfterSeconds: Math.min(60, Math.max(1, Math.ceil(untilReset / 1_000))) };
  }

  /** Windows currently tracked. */
  get trackedKeys(): number {
    return this.#windows.size;
  }

  #open(id: string, now: number): Window {
    this.#windows.delete(id);
    for (const oldest of this.#windows.keys()) {
      if (this.#windows.size < this.#maxKeys) break;
      this.#windows.delete(oldest);
    }
    const window: Window = { startedAt: now, count: 0 };
    if (this.#windows.size === 0) this.#firstExpiry = now + RATE_WINDOW_MS;
    this.#windows.set(id, window);
    return window;
  }

  // Amortised O(1): stops at the first live window, and looks at none before the front one expires.
  #dropExpired(now: number): void {
    if (now < this.#firstExpiry) return;
    for (const [id, window] of this.#windows) {
      if (now < window.startedAt + RATE_WINDOW_MS) {
        this.#firstExpiry = window.startedAt + RATE_WINDOW_MS;
        return;
      }
      this.#windows.delete(id);
    }
    this.#firstExpiry = Number.POSITIVE_INFINITY;
  }
}
