// A human gate is "wait until decided or timed out": the decision, the deadline (which expires the
// approval as a rejection) or the run stopping, whichever comes first. The deadline timer is
// released as soon as the wait ends.
import type { Clock } from '../../platform/clock/index.js';
import type { OpenGate } from './gate-keeper.js';
import type { GateDecision } from './step-runner.js';
import type { Timers } from './timers.js';
import { untilAborted } from '../../platform/abort/index.js';

export async function awaitGate(
  gate: OpenGate,
  deadline: number | undefined,
  context: { readonly clock: Clock; readonly timers: Timers; readonly signal: AbortSignal },
): Promise<GateDecision> {
  const done = new AbortController();
  if (deadline !== undefined) {
    context.timers
      .sleep(Math.max(0, deadline - context.clock.now()), AbortSignal.any([done.signal, context.signal]))
      .then(() => gate.expire(), () => undefined);
  }
  try {
    return await untilAborted(gate.decided, context.signal);
  } finally {
    done.abort();
  }
}
