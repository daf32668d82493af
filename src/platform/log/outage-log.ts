// Logs a background loop's failures once per change of state: the first failure (warn, with its
// cause) and the recovery (info), never a line per attempt while a dependency stays away. Sweepers,
// the run engine's heartbeat and scan, and journal followers report through one of these.

export interface OutageLogSink {
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}

export class OutageLog {
  readonly #sink: OutageLogSink;
  readonly #what: string;
  #failing = false;

  /** `what` names the loop in both lines ("the bundle sweep", "the run heartbeat"). */
  constructor(sink: OutageLogSink, what: string) {
    this.#sink = sink;
    this.#what = what;
  }

  get failing(): boolean {
    return this.#failing;
  }

  failed(err: unknown): void {
    if (this.#failing) return;
    this.#failing = true;
    this.#sink.warn({ err }, `${this.#what} failed; retrying until it works again`);
  }

  succeeded(): void {
    if (!this.#failing) return;
    this.#failing = false;
    this.#sink.info({}, `${this.#what} works again`);
  }
}
