// How the schedule ticker waits between passes. Injected, so tests step the ticker with ManualTicks
// and a fake clock instead of sleeping; the real one never keeps the process alive.
import { setTimeout as sleepFor } from 'node:timers/promises';

export interface TickWaiter {
  /** Resolves after `ms`, or as soon as `signal` aborts (never rejects). */
  wait(ms: number, signal: AbortSignal): Promise<void>;
}

export const realTickWaiter: TickWaiter = Object.freeze({
  async wait(ms: number, signal: AbortSignal): Promise<void> {
    await sleepFor(ms, undefined, { signal, ref: false }).catch(() => undefined);
  },
});
