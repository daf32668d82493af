// One direct invocation's deadline and abort signal: the signal aborts when the client goes away or
// the deadline passes; `race` rejects with DeadlineExceeded at the deadline only. One controller and
// one cleared timer per invocation: AbortSignal.timeout + AbortSignal.any and a second controller for
// the disconnect (used before) kept a timer, signals and weak references alive for the whole timeout
// (30 s by default) after every request.

export class DeadlineExceeded extends Error {}

/** Subscribes to the client going away; returns the unsubscribe. (HTTP: the response closing early.) */
export type OnClientGone = (listener: () => void) => () => void;

export class InvocationDeadline {
  readonly #controller = new AbortController();
  readonly #timer: NodeJS.Timeout;
  readonly #unsubscribe: () => void;
  #expired = false;
  #onExpiry: (() => void) | undefined;

  constructor(onClientGone: OnClientGone, timeoutMs: number) {
    this.#timer = setTimeout(() => {
      this.#expired = true;
      this.#controller.abort(new DeadlineExceeded());
      this.#onExpiry?.();
    }, timeoutMs);
    this.#unsubscribe = onClientGone(() => this.#controller.abort());
  }

  /** Aborted by the client going away or by the deadline. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get expired(): boolean {
    return this.#expired;
  }

  /** The work's outcome, or DeadlineExceeded once the deadline passes (one race at a time). */
  race<T>(work: Promise<T>): Promise<T> {
    if (this.#expired) return Promise.reject(new DeadlineExceeded());
    return new Promise<T>((resolve, reject) => {
      const onExpiry = (): void => reject(new DeadlineExceeded());
      this.#onExpiry = onExpiry;
      // An earlier race settling late must not unhook this one. One `then`, not then + finally: a
      // direct invocation races its tool lookup and its call, and every promise is per request.
      work.then(
        (value) => {
          if (this.#onExpiry === onExpiry) this.#onExpiry = undefined;
          resolve(value);
        },
        (error: unknown) => {
          if (this.#onExpiry === onExpiry) this.#onExpiry = undefined;
          reject(error);
        },
      );
    });
  }

  /** Clears the timer and the client subscription; the signal stays as it is. */
  dispose(): void {
    clearTimeout(this.#timer);
    this.#unsubscribe();
  }
}
