// Runs a sweep on a fixed interval in the background. It never keeps the process alive, never starts a
// sweep while the previous one is still running (that tick is skipped), and reports failures instead
// of throwing: once when sweeps start failing and once when they work again (OutageLog), so a storage
// outage is two log lines, not one per interval.
import { OutageLog, type OutageLogSink } from '../log/index.js';

export interface StartSweeperOptions {
  readonly intervalMs: number;
  readonly sweep: () => Promise<unknown>;
  /** Names the sweep in its log lines ("the bundle sweep"). */
  readonly name: string;
  readonly log: OutageLogSink;
}

export interface Sweeper {
  /** Stops future sweeps; a sweep already running is left to finish. Idempotent. */
  stop(): void;
}

export function startSweeper(options: StartSweeperOptions): Sweeper {
  const { intervalMs, sweep } = options;
  if (!(Number.isSafeInteger(intervalMs) && intervalMs >= 1)) {
    throw new RangeError(`intervalMs must be a positive integer, got ${intervalMs}`);
  }
  const outage = new OutageLog(options.log, options.name);
  let running = false;
  let stopped = false;

  const runOnce = async (): Promise<void> => {
    running = true;
    try {
      await sweep();
      outage.succeeded();
    } catch (err) {
      outage.failed(err);
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
