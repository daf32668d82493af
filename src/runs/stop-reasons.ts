// Why a run's signal was aborted, as typed reasons the families branch on: the caller cancelled it
// (record it as cancelled), the host is stopping (Memory: as cancelled; Postgres: leave it for another
// instance to take over), or this instance lost the run's lease to a takeover (write nothing more).

export type StopCause = 'cancelled' | 'host-stopping' | 'lease-lost';

export class RunStopped extends DOMException {
  readonly stop: StopCause;
  constructor(stop: StopCause, message: string) {
    super(message, 'AbortError');
    this.stop = stop;
  }
}

export const cancelledByCaller = (message = 'The run was cancelled.'): RunStopped => new RunStopped('cancelled', message);
export const hostStopping = (): RunStopped => new RunStopped('host-stopping', 'The host is shutting down.');
export const leaseLost = (): RunStopped => new RunStopped('lease-lost', 'Another instance took this run over.');

/** The cause of an aborted signal, or null when it is not aborted. Anything else aborting it counts as a cancel. */
export function stopCause(signal: AbortSignal): StopCause | null {
  if (!signal.aborted) return null;
  const reason: unknown = signal.reason;
  return reason instanceof RunStopped ? reason.stop : 'cancelled';
}
