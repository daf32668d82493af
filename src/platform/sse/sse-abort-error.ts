// Why an SSE stream stopped: the reason its AbortSignal carries. Named AbortError so code that treats
// aborts as cancellation (fetch, timers/promises, name checks) treats this one the same way.

export type SseAbortCode =
  /** close() was called, or the response was ended elsewhere. */
  | 'closed'
  /** The client went away. */
  | 'client-disconnected'
  /** The client stopped reading and the buffer passed maxBufferedBytes; it was dropped. */
  | 'slow-consumer'
  /** Writing failed; the error is the cause and was passed to onError. */
  | 'write-error';

export class SseAbortError extends Error {
  readonly code: SseAbortCode;

  constructor(code: SseAbortCode, options: { cause?: unknown } = {}) {
    super(`SSE stream ended: ${code}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AbortError';
    this.code = code;
  }
}

export function isSseAbortError(value: unknown): value is SseAbortError {
  return value instanceof SseAbortError;
}
