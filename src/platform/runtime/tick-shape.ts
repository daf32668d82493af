// Keeps the shape of Node's `process.nextTick` queue entries alive for the life of the process
// (decision 3610). Node builds each entry as an object literal whose first keys are computed
// (`{ [async_id_symbol]: …, [trigger_async_id_symbol]: …, callback, args }`); V8 records the hidden
// class met at each of those computed-key definitions, and that record has no polymorphic state: the
// first other class it meets turns it megamorphic for good, and from then on every entry is built by
// a runtime call (about a tenth of the service's CPU on a served request, which makes seven ticks).
// Those classes are held only weakly (by the entries themselves, the feedback and optimized code), so
// a full garbage collection that runs while no tick is queued, as one during start-up does, lets
// them die, the next tick builds new ones, and the record goes megamorphic. Holding one real entry
// holds its class and, through its back pointers, every class before it, so the record stays
// monomorphic. The entry is caught with an async hook enabled for the one `nextTick` call that
// makes it; nothing else runs while the hook is on.
import { createHook } from 'node:async_hooks';

let held: object | undefined;

/** Holds one `process.nextTick` entry for good (once; later calls do nothing). Call it first. */
export function keepTickShape(): void {
  if (held !== undefined) return;
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === 'TickObject' && held === undefined) held = resource;
    },
  });
  hook.enable();
  try {
    process.nextTick(noop);
  } finally {
    hook.disable();
  }
}

/** Whether an entry is held (the hook met the `nextTick` entry). */
export function tickShapeHeld(): boolean {
  return held !== undefined;
}

function noop(): void {}
