// Why a run's signal was aborted, as typed reasons: the caller cancelled it (with a caller-safe
// reason, or the family's default wording), the host is stopping, or this instance lost the run's
// lease to a takeover. The engine turns them into a run's ending (run-kind.ts); families read only
// the signal's `aborted`.

export type StopCause = 'cancelled' | 'host-stopping' | 'lease-lost';

export class RunStopped extends DOMException {
  readonly stop: StopCause;
  /** A cancel's caller-safe reason (null: the family's default). */
  readonly callerReason: string | null;
  constructor(stop: StopCause, message: string, callerReason: string | null = null) {
    super(message, 'AbortError');
    this.stop = stop;
    this.callerReason = callerReason;
  }
}

export const cancelledByCaller = (reason?: string): RunStopped => new RunStopped('cancelled', reason ?? 'The run was cancelled.', reason ?? null);
export const hostStopping = (): RunStopped => new RunStopped('host-stopping', 'The host is shutting down.');
export const leaseLost = (): RunStopped => new RunStopped('lease-lost', 'Another instance took this run over.');

/** The cause of an aborted signal, or null when it is not aborted. Anything else aborting it counts as a cancel. */
export function stopCause(signal: AbortSignal): StopCause | null {
  if (!signal.aborted) return null;
  const reason: unknown = signal.reason;
  return reason instanceof RunStopped ? reason.stop : 'cancelled';
}
