// Per-caller request rate on fixed one-minute windows. A key's window opens at its first request and
// lasts 60 s from then (not aligned to the wall-clock minute). One limiter per policy; keys are owner
// ids or remote IPs, never tokens. Bounded memory: the oldest windows are dropped first.
import type { Clock } from '../clock/index.js';

export const RATE_LIMIT_WINDOW_MS = 60_000;

export interface FixedWindowRateLimiterOptions {
  readonly permitsPerMinute: number;
  readonly clock: Clock;
  /** Most keys tracked at once; beyond it the oldest window is forgotten (that key starts afresh). Default 100,000. */
  readonly maxKeys?: number;
}

export type RateLimitDecision =
  | { readonly allowed: true; readonly remaining: number }
  | { readonly allowed: false; readonly retryAfterSeconds: number };

interface Window {
  readonly startedAt: number;
  count: number;
}

export class FixedWindowRateLimiter {
  readonly #permits: number;
  readonly #clock: Clock;
  readonly #maxKeys: number;
  // Map order is window start order, so expired and oldest windows sit at the front.
  readonly #windows = new Map<string, Window>();

  constructor(options: FixedWindowRateLimiterOptions) {
    const { permitsPerMinute, clock, maxKeys = 100_000 } = options;
    assertPositiveInteger('permitsPerMinute', permitsPerMinute);
    assertPositiveInteger('maxKeys', maxKeys);
    this.#permits = permitsPerMinute;
    this.#clock = clock;
    this.#maxKeys = maxKeys;
  }

  take(key: string): RateLimitDecision {
    const now = this.#clock.now();
    this.#dropExpired(now);
    let window = this.#windows.get(key);
    if (window === undefined || now >= window.startedAt + RATE_LIMIT_WINDOW_MS) {
      window = this.#open(key, now);
    }
    if (window.count < this.#permits) {
      window.count += 1;
      return { allowed: true, remaining: this.#permits - window.count };
    }
    const untilReset = window.startedAt + RATE_LIMIT_WINDOW_MS - now;
    return { allowed: false, retryAfterSeconds: Math.min(60, Math.max(1, Math.ceil(untilReset / 1_000))) };
  }

  /** Keys currently tracked (for tests and metrics). */
  get trackedKeys(): number {
    return this.#windows.size;
  }

  #open(key: string, now: number): Window {
    this.#windows.delete(key);
    for (const oldest of this.#windows.keys()) {
      if (this.#windows.size < this.#maxKeys) break;
      this.#windows.delete(oldest);
    }
    const window: Window = { startedAt: now, count: 0 };
    this.#windows.set(key, window);
    return window;
  }

  // Amortised O(1): stops at the first live window.
  #dropExpired(now: number): void {
    for (const [key, window] of this.#windows) {
      if (now < window.startedAt + RATE_LIMIT_WINDOW_MS) return;
      this.#windows.delete(key);
    }
  }
}

function assertPositiveInteger(name: string, value: number): void {
  if (!(Number.isSafeInteger(value) && value >= 1)) throw new RangeError(`${name} must be a positive integer, got ${value}`);
}
