// Counts a request body as it streams past whatever consumes it, and trips once it passes a cap.
// Start it in the same tick the consumer is attached, so no byte goes uncounted.
import type { EventEmitter } from 'node:events';

/** The request body as a byte source: Node's IncomingMessage satisfies it. */
export interface RequestBody extends EventEmitter {
  readonly readableEnded: boolean;
}

export interface BodyMeter {
  /** Aborted with `onOverflow()`'s error once the body passes the cap. */
  readonly signal: AbortSignal;
  /** Resolves when the whole body has arrived; rejects on overflow or a body cut short. */
  ended(): Promise<void>;
  stop(): void;
}

export function meterRequestBody(body: RequestBody, maxBytes: number, onOverflow: () => Error): BodyMeter {
  const overflow = new AbortController();
  let bytes = 0;
  const count = (chunk: Buffer): void => {
    bytes += chunk.length;
    if (bytes > maxBytes && !overflow.signal.aborted) overflow.abort(onOverflow());
  };
  body.on('data', count);
  return {
    signal: overflow.signal,
    ended: () => bodyEnded(body, overflow.signal),
    stop: () => body.off('data', count),
  };
}

function bodyEnded(body: RequestBody, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  if (body.readableEnded) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const settle = (error?: Error): void => {
      body.off('end', onEnd);
      body.off('close', onClose);
      signal.removeEventListener('abort', onAbort);
      if (error === undefined) resolve();
      else reject(error);
    };
    const onEnd = (): void => settle();
    const onClose = (): void => settle(body.readableEnded ? undefined : new Error('the request body ended early'));
    const onAbort = (): void => settle(signal.reason as Error);
    body.on('end', onEnd);
    body.on('close', onClose);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
