// A signal that aborts when a parent signal aborts or a deadline passes, whichever is first, for one
// piece of work that ends it with `clear()`. It replaces `AbortSignal.any([parent,
// AbortSignal.timeout(ms)])`, which never aborts on Node 20 once a garbage collection has run: the
// composite holds its sources weakly and nothing else holds the timeout signal, so it is collected with
// its timer (a webhook receiver that never answered held its delivery slot for good). Here the timer
// holds the controller strongly until it fires or `clear()` runs, and clearing also drops the listener
// on the parent, so nothing outlives the work.

/** The reason a passed deadline aborts with: a `TimeoutError` DOMException, as AbortSignal.timeout's. */
export function timeoutReason(): DOMException {
  return new DOMException('The operation was aborted due to timeout', 'TimeoutError');
}

export interface DeadlineSignal {
  readonly signal: AbortSignal;
  /** Whether the deadline (not the parent) aborted the signal. */
  readonly timedOut: boolean;
  /** Ends the deadline and the parent listener; call it when the work ends, however it ends. */
  clear(): void;
}

/** Aborts `signal` when `parent` aborts (with its reason) or after `ms` (with timeoutReason()). */
export function deadlineSignal(parent: AbortSignal | undefined, ms: number): DeadlineSignal {
  const controller = new AbortController();
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  const onParentAbort = (): void => {
    clear();
    controller.abort(parent?.reason);
  };
  const clear = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    parent?.removeEventListener('abort', onParentAbort);
  };
  if (parent?.aborted === true) {
    controller.abort(parent.reason);
  } else {
    parent?.addEventListener('abort', onParentAbort, { once: true });
    timer = setTimeout(() => {
      timedOut = true;
      clear();
      controller.abort(timeoutReason());
    }, ms);
    // Like AbortSignal.timeout's: a pending deadline alone does not keep the process alive.
    timer.unref();
  }
  return {
    signal: controller.signal,
    get timedOut() {
      return timedOut;
    },
    clear,
  };
}
