// One model call's abort signal: the caller's signal and the TimeoutSeconds deadline combined,
// remembering which of the two fired so the failure can be named. Closing it aborts whatever is
// still in flight upstream (early `break` by the consumer included) and releases the timer.
export interface CallSignal {
  readonly signal: AbortSignal;
  readonly cancelled: () => boolean;
  readonly timedOut: () => boolean;
  close(): void;
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
    close: () => {
      clearTimeout(timer);
      requestSignal.removeEventListener('abort', onAbort);
      controller.abort(new DOMException('The chat model call ended.', 'AbortError'));
    },
  };
}
