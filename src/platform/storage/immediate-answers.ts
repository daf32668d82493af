// The synchronous answers of an in-process store, private to the platform. The storage port is
// Promise-only to every caller; the request path's rate-limit hook and concurrency slots (both in
// platform/) ask here first, so on the Memory provider a poll or a direct invocation waits on no
// promise for its rate window or its slot (decision 0655). Feature code cannot import this module
// (an eslint zone): it sees only the port.
import type { RateDecision, RateWindows } from './rate-windows.js';
import type { SlotStore } from './slot-store.js';

const IMMEDIATE = Symbol('portcullis.immediate');

export interface ImmediateRateWindows {
  take(policy: string, key: string, permitsPerMinute: number): RateDecision;
}

export interface ImmediateSlots {
  acquire(kind: string, key: string, limit: number, holder: string, ttlMs: number): string | null;
  release(slotId: string): void;
}

/** Marks `store` as answering at once through `immediate` (the Memory provider's stores do this). */
export function answersAtOnce<S extends object, I>(store: S, immediate: I): S {
  Object.defineProperty(store, IMMEDIATE, { value: immediate, enumerable: false });
  return store;
}

export function immediateRates(rates: RateWindows): ImmediateRateWindows | undefined {
  return (rates as { [IMMEDIATE]?: ImmediateRateWindows })[IMMEDIATE];
}

export function immediateSlots(slots: SlotStore): ImmediateSlots | undefined {
  return (slots as { [IMMEDIATE]?: ImmediateSlots })[IMMEDIATE];
}
