// The synchronous answers of an in-process store, private to the platform. The storage port is
// Promise-only to every caller; the request path's rate-limit hook and concurrency slots (both in
// platform/) ask here first, so on the Memory provider a poll or a direct invocation waits on no
// promise for its rate window or its slot (decision 0655). Which stores answer at once is plain: the
// Memory provider's rate windows and slot store (their `takeNow`/`acquireNow`/`releaseNow`); any other
// store answers through its promises. Feature code cannot import this module (an eslint zone): it
// sees only the port.
import { MemoryRateWindows } from './memory/memory-rate-windows.js';
import { MemorySlotStore } from './memory/memory-slot-store.js';
import type { RateDecision, RateWindows } from './rate-windows.js';
import type { SlotStore } from './slot-store.js';

export interface ImmediateRateWindows {
  take(policy: string, key: string, permitsPerMinute: number): RateDecision;
}

export interface ImmediateSlots {
  acquire(kind: string, key: string, limit: number, holder: string, ttlMs: number): string | null;
  release(slotId: string): void;
}

export function immediateRates(rates: RateWindows): ImmediateRateWindows | undefined {
  if (!(rates instanceof MemoryRateWindows)) return undefined;
  return { take: (policy, key, permitsPerMinute) => rates.takeNow(policy, key, permitsPerMinute) };
}

export function immediateSlots(slots: SlotStore): ImmediateSlots | undefined {
  if (!(slots instanceof MemorySlotStore)) return undefined;
  return { acquire: (kind, key, limit, holder, ttlMs) => slots.acquireNow(kind, key, limit, holder, ttlMs), release: (id) => slots.releaseNow(id) };
}
