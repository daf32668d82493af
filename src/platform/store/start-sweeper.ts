// Runs a sweep on a fixed interval in the background. It never keeps the process alive, never starts a
// sweep while the previous one is still running (that tick is skipped), and reports failures instead of throwing.

export interface StartSweeperOptions {
  readonly intervalMs: number;
  readonly sweep: () => Promise<unknown>;
  /** Receives whatever a sweep threw or rejected with; the sweeper keeps running. */
  readonly onError: (err: unknown) => void;
}

export interface Sweeper {
  /** Stops future sweeps; a sweep already running is left to finish. Idempotent. */
  stop(): void;
}

export function startSweeper(options: StartSweeperOptions): Sweeper {
  const { intervalMs, sweep, onError } = options;
  if (!(Number.isSafeInteger(intervalMs) && intervalMs >= 1)) {
    throw new RangeError(`intervalMs must be a positive integer, got ${intervalMs}`);
  }
  let running = false;
  let stopped = false;

  const runOnce = async (): Promise<void> => {
    running = true;
    try {
      await sweep();
    } catch (err) {
      onError(err);
    } finally {
      running = false;
    }
  };

  const timer = setInterval(() => {
    if (running || stopped) return;
    void runOnce();
  }, intervalMs);
  timer.unref();

  return {
    stop(): void {
      stopped = true;
      clearInterval(timer);
    },
  };
}
