// Why a run's signal was aborted, as typed causes: the caller cancelled it, its stream client stopped
// reading (the stream was dropped, and the run with it), the host is stopping, or this instance lost
// the run's lease to a takeover. The engine turns them into a run's ending (run-kind.ts); families read
// the cause from the ending, never from a message text.

/** What a caller may stop a run for (engine.cancel, and the cancel message between instances). */
export type CancelCause = 'cancelled' | 'client-too-slow';
export type StopCause = CancelCause | 'host-stopping' | 'lease-lost';

export class RunStopped extends DOMException {
  readonly stop: StopCause;
  constructor(stop: StopCause, message: string) {
    super(message, 'AbortError');
    this.stop = stop;
  }
}

export const cancelledBy = (cause: CancelCause): RunStopped =>
  new RunStopped(cause, cause === 'client-too-slow' ? 'The stream client stopped reading.' : 'The run was cancelled.');
export const hostStopping = (): RunStopped => new RunStopped('host-stopping', 'The host is shutting down.');
export const leaseLost = (): RunStopped => new RunStopped('lease-lost', 'Another instance took this run over.');

/** The cause of an aborted signal, or null when it is not aborted. Anything else aborting it counts as a cancel. */
export function stopCause(signal: AbortSignal): StopCause | null {
  if (!signal.aborted) return null;
  const reason: unknown = signal.reason;
  return reason instanceof RunStopped ? reason.stop : 'cancelled';
}
