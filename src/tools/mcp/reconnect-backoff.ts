// Paces connection attempts to one MCP server: a server that died after a good connection is
// restarted at most once per base interval (callers wait out the rest), while a server that fails to
// connect is retried with doubling delays and callers in between fail fast with the last error.
import type { Clock } from '../../platform/clock/index.js';

export type AttemptPlan =
  | { readonly kind: 'now' }
  | { readonly kind: 'wait'; readonly ms: number }
  | { readonly kind: 'refuse'; readonly error: unknown };

export class ReconnectBackoff {
  readonly #clock: Clock;
  readonly #baseMs: number;
  readonly #maxMs: number;
  #failures = 0;
  #nextAttemptAt = Number.NEGATIVE_INFINITY;
  #lastError: unknown;

  constructor(clock: Clock, baseMs = 1_000, maxMs = 30_000) {
    this.#clock = clock;
    this.#baseMs = baseMs;
    this.#maxMs = maxMs;
  }

  plan(): AttemptPlan {
    const remaining = this.#nextAttemptAt - this.#clock.now();
    if (remaining <= 0) return { kind: 'now' };
    return this.#failures > 0 ? { kind: 'refuse', error: this.#lastError } : { kind: 'wait', ms: remaining };
  }

  succeeded(): void {
    this.#failures = 0;
    this.#lastError = undefined;
    this.#nextAttemptAt = this.#clock.now() + this.#baseMs;
  }

  failed(error: unknown): void {
    this.#failures += 1;
    this.#lastError = error;
    const delay = Math.min(this.#baseMs * 2 ** (this.#failures - 1), this.#maxMs);
    this.#nextAttemptAt = this.#clock.now() + delay;
  }
}
