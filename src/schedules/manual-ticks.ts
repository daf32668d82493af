// A TickWaiter driven by a test: the ticker waits until `step()` lets it run one more pass, and
// `step()` resolves once that pass finished (the ticker waits again). One per ticker.
import type { TickWaiter } from './tick-waiter.js';

export class ManualTicks implements TickWaiter {
  #release: (() => void) | undefined;
  #arrivals: Array<() => void> = [];

  wait(_ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const aborted = () => resolve();
      this.#release = () => {
        signal.removeEventListener('abort', aborted);
        resolve();
      };
      signal.addEventListener('abort', aborted, { once: true });
      for (const arrived of this.#arrivals.splice(0)) arrived();
    });
  }

  /** Runs one pass of the ticker (after its current one, if it is mid-pass) and resolves when it is done. */
  async step(): Promise<void> {
    if (this.#release === undefined) await this.#arrival();
    const release = this.#release;
    this.#release = undefined;
    const done = this.#arrival();
    release?.();
    await done;
  }

  #arrival(): Promise<void> {
    return new Promise((resolve) => this.#arrivals.push(resolve));
  }
}
