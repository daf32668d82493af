// Timers that fire only when a test advances them, on a ManualClock shared with the engine.
import type { ManualClock } from '../../platform/clock/index.js';
import type { Timers } from './timers.js';

interface Sleeper {
  readonly due: number;
  readonly resolve: () => void;
}

export class ManualTimers implements Timers {
  readonly #clock: ManualClock;
  readonly #sleepers = new Set<Sleeper>();

  constructor(clock: ManualClock) {
    this.#clock = clock;
  }

  sleep(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal.aborted) {
        reject(signal.reason as Error);
        return;
      }
      const sleeper: Sleeper = {
        due: this.#clock.now() + Math.max(0, ms),
        resolve: () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = (): void => {
        this.#sleepers.delete(sleeper);
        reject(signal.reason as Error);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.#sleepers.add(sleeper);
    });
  }

  /** Moves the clock and wakes every sleeper that is now due, earliest first. */
  advance(ms: number): void {
    this.#clock.advance(ms);
    const due = [...this.#sleepers].filter((s) => s.due <= this.#clock.now()).sort((a, b) => a.due - b.due);
    for (const sleeper of due) {
      this.#sleepers.delete(sleeper);
      sleeper.resolve();
    }
  }

  get pending(): number {
    return this.#sleepers.size;
  }
}
