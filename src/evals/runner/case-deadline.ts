// Each eval case's abort signal: the host's shutdown signal and the case's own timeout combined, with
// one controller and one timer per case that is cleared when the case ends. The host signal carries
// one listener for the whole run, which aborts every open case: a listener per case on it (Node's
// EventTarget walks its listeners on every add) and AbortSignal.timeout + AbortSignal.any (used
// before, which also left the case's whole timeout, 60 s by default, on a timer behind every case)
// cost a measurable share of a run at parallelism 128.
export interface CaseDeadline {
  readonly signal: AbortSignal;
  /** Whether the case's own timeout fired (not the host shutting down). */
  readonly timedOut: () => boolean;
  /** Clears the timer and forgets the case; its signal stays as it is. */
  close(): void;
}

export class CaseDeadlines {
  readonly #host: AbortSignal;
  readonly #open = new Set<AbortController>();
  readonly #onHostAbort = (): void => {
    for (const controller of this.#open) controller.abort(this.#host.reason);
  };

  constructor(host: AbortSignal) {
    this.#host = host;
    host.addEventListener('abort', this.#onHostAbort, { once: true });
  }

  open(timeoutMs: number): CaseDeadline {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new DOMException('The eval case timed out.', 'TimeoutError'));
    }, timeoutMs);
    if (this.#host.aborted) controller.abort(this.#host.reason);
    else this.#open.add(controller);
    return {
      signal: controller.signal,
      timedOut: () => timedOut,
      close: () => {
        clearTimeout(timer);
        this.#open.delete(controller);
      },
    };
  }

  /** Lets go of the host signal (the run is over). */
  close(): void {
    this.#host.removeEventListener('abort', this.#onHostAbort);
  }
}
