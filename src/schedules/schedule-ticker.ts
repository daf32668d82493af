// The loop on every instance that fires due schedules (DESIGN.md §14): a pass reads the due schedules
// (one indexed query: their alarms are leases lapsing at the next fire), fires each through the
// ScheduleFirer, and reads again while a full batch came back; then it waits a second. Schedules are
// cron-precise to the second at best, so a one-second wait is the bound on lateness. A failing pass
// (the storage away) is logged once when it starts failing and once when it works again, and retried.
import { OutageLog, type OutageLogSink } from '../platform/log/index.js';
import type { ScheduleFirer } from './schedule-firer.js';
import type { ScheduleStore } from './schedule-store.js';
import type { TickWaiter } from './tick-waiter.js';

/** Due schedules read at once, and how many reads one pass makes at most (the rest wait for the next). */
const BATCH = 100;
const MAX_READS_PER_PASS = 10;
export const TICK_INTERVAL_MS = 1_000;

export interface ScheduleTickerOptions {
  readonly store: ScheduleStore;
  readonly firer: ScheduleFirer;
  readonly waiter: TickWaiter;
  readonly log: OutageLogSink;
}

export class ScheduleTicker {
  readonly #options: ScheduleTickerOptions;
  readonly #outage: OutageLog;
  readonly #stop = new AbortController();
  #loop: Promise<void> | undefined;

  constructor(options: ScheduleTickerOptions) {
    this.#options = options;
    this.#outage = new OutageLog(options.log, 'the schedule ticker');
  }

  start(): void {
    this.#loop ??= this.#run();
  }

  /** Stops ticking; resolves once a pass in progress finished (no fire is left half-recorded by the stop). */
  async stop(): Promise<void> {
    this.#stop.abort();
    await this.#loop;
  }

  /** Fires every schedule due now; throws the first failure after trying them all. */
  async pass(): Promise<void> {
    const { store, firer } = this.#options;
    let failure: unknown;
    for (let read = 1; ; read += 1) {
      const due = await store.due(BATCH);
      for (const record of due) {
        if (this.#stop.signal.aborted) return;
        await firer.fire(record).catch((err: unknown) => (failure ??= err));
      }
      if (failure !== undefined) throw failure instanceof Error ? failure : new Error('a schedule fire failed', { cause: failure });
      if (due.length < BATCH || read === MAX_READS_PER_PASS) return;
    }
  }

  async #run(): Promise<void> {
    const { signal } = this.#stop;
    while (!signal.aborted) {
      try {
        await this.pass();
        this.#outage.succeeded();
      } catch (err) {
        this.#outage.failed(err);
      }
      if (!signal.aborted) await this.#options.waiter.wait(TICK_INTERVAL_MS, signal);
    }
  }
}
