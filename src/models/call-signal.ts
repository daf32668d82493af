// One model call's abort signal: the caller's signal and the TimeoutSeconds deadline combined,
// remembering which of the two fired so the failure can be named. Closing it releases the timer and,
// unless the call completed (its response read to the end), aborts whatever is still in flight
// upstream (early `break` by the consumer included). A completed call has nothing left to abort, and
// aborting it anyway cost a DOMException and the HTTP client's abort handling on every call.
export interface CallSignal {
  readonly signal: AbortSignal;
  readonly cancelled: () => boolean;
  readonly timedOut: () => boolean;
  close(completed: boolean): void;
}

export function openCallSignal(requestSignal: AbortSignal, timeoutMs: number): CallSignal {
  const controller = new AbortController();
  let timedOut = false;
  const onAbort = (): void => controller.abort(requestSignal.reason);
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException('The chat model call timed out.', 'TimeoutError'));
  }, timeoutMs);
  if (requestSignal.aborted) onAbort();
  else requestSignal.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    cancelled: () => requestSignal.aborted,
    timedOut: () => timedOut && !requestSignal.aborted,
    close: (completed) => {
      clearTimeout(timer);
      requestSignal.removeEventListener('abort', onAbort);
      if (!completed) controller.abort(new DOMException('The chat model call ended.', 'AbortError'));
    },
  };
}
