// SpendCounters for one process, on the injected clock. Expired totals are dropped as the map is
// walked in insertion order by a sweep at most once a minute, so memory follows the live periods.
import type { Clock } from '../../clock/index.js';
import type { SpendCounter, SpendCounters } from '../spend-counters.js';

interface Total {
  spent: number;
  expiresAt: number;
}

const SWEEP_MS = 60_000;

export class MemorySpendCounters implements SpendCounters {
  readonly #clock: Clock;
  readonly #totals = new Map<string, Total>();
  #sweptAt = Number.NEGATIVE_INFINITY;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  read(ownerId: string, periods: readonly string[]): Promise<readonly number[]> {
    const now = this.#clock.now();
    return Promise.resolve(
      periods.map((period) => {
        const total = this.#totals.get(key(ownerId, period));
        return total === undefined || total.expiresAt <= now ? 0 : total.spent;
      }),
    );
  }

  add(ownerId: string, counters: readonly SpendCounter[], nanoUsd: number): Promise<readonly number[]> {
    const now = this.#clock.now();
    this.#sweep(now);
    return Promise.resolve(
      counters.map(({ period, expiresAt }) => {
        const id = key(ownerId, period);
        const total = this.#totals.get(id);
        if (total === undefined || total.expiresAt <= now) {
          this.#totals.set(id, { spent: nanoUsd, expiresAt });
          return nanoUsd;
        }
        total.spent += nanoUsd;
        total.expiresAt = Math.max(total.expiresAt, expiresAt);
        return total.spent;
      }),
    );
  }

  #sweep(now: number): void {
    if (now - this.#sweptAt < SWEEP_MS) return;
    this.#sweptAt = now;
    for (const [id, total] of this.#totals) if (total.expiresAt <= now) this.#totals.delete(id);
  }
}

const key = (ownerId: string, period: string): string => `${ownerId}\u0000${period}`;
