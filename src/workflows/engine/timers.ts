// The engine's only way to wait for time to pass (gate timeouts). Injected, so tests drive timeouts
// with ManualTimers and never sleep; the real implementation never keeps the process alive.
import { setTimeout as sleepFor } from 'node:timers/promises';

export interface Timers {
  /** Resolves after `ms`; rejects as soon as `signal` aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

// setTimeout fires at once beyond this many milliseconds, so longer waits are chained.
const MAX_TIMER_MS = 2_147_483_647;

export const realTimers: Timers = Object.freeze({
  async sleep(ms: number, signal: AbortSignal): Promise<void> {
    let remaining = Math.max(0, ms);
    do {
      const chunk = Math.min(remaining, MAX_TIMER_MS);
      await sleepFor(chunk, undefined, { signal, ref: false });
      remaining -= chunk;
    } while (remaining > 0);
  },
});
