// Follows a run's numbered events from any instance: everything after `after`, then each new event as
// commits append them, woken by the journal's watch (a notification from whichever instance executes
// the run). A periodic re-read covers a notification lost while a listener reconnected. While the
// storage cannot be reached it waits and reads again (backing off up to a few seconds), so a stream
// survives an outage and resumes where it was; any other failure is the caller's. Ends when `signal`
// aborts, or — once `finish` aborts (the host stopping) — after handing over what is committed now.
import { isStorageUnavailable, type JournalEvent, type RecordKey, type RunJournal } from '../platform/storage/index.js';

const BATCH = 256;
/** Re-read this often even without a notification (a safety net, not the delivery path). */
const RECHECK_MS = 1_000;
const MIN_RETRY_MS = 100;
const MAX_RETRY_MS = 2_000;

export interface FollowOptions {
  /** Once aborted, the follower yields what is committed by then and ends. */
  readonly finish?: AbortSignal;
  /** Hears reads failing because the storage is away, and working again. */
  readonly outage?: { failed(err: unknown): void; succeeded(): void };
}

export async function* followJournal<E>(journal: RunJournal, run: RecordKey, after: number, signal: AbortSignal, options: FollowOptions = {}): AsyncGenerator<JournalEvent<E>> {
  const { finish, outage } = options;
  let cursor = after;
  let dirty = true;
  let wake: (() => void) | undefined;
  const stop = journal.watch(run, () => {
    dirty = true;
    wake?.();
  });
  const onFinish = (): void => wake?.();
  finish?.addEventListener('abort', onFinish, { once: true });
  let retryMs = MIN_RETRY_MS;
  try {
    while (!signal.aborted) {
      const finishing = finish?.aborted === true;
      dirty = false;
      let events: JournalEvent<E>[];
      try {
        events = await journal.events<E>(run, cursor, BATCH);
        outage?.succeeded();
        retryMs = MIN_RETRY_MS;
      } catch (error) {
        if (!isStorageUnavailable(error) || finishing) throw error;
        outage?.failed(error);
        await pause(retryMs, signal, finish);
        retryMs = Math.min(MAX_RETRY_MS, retryMs * 2);
        continue;
      }
      for (const event of events) {
        cursor = event.seq;
        yield event;
        if (signal.aborted) return;
      }
      if (events.length === BATCH || (dirty && !finishing)) continue;
      if (finishing) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, RECHECK_MS);
        function done(): void {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          wake = undefined;
          resolve();
        }
        wake = done;
        signal.addEventListener('abort', done, { once: true });
        if (dirty || finish?.aborted === true) done();
      });
    }
  } finally {
    finish?.removeEventListener('abort', onFinish);
    stop();
  }
}

/** Waits `ms`, or less when `signal` or `finish` aborts first. */
function pause(ms: number, signal: AbortSignal, finish: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve) => {
    const signals = finish === undefined ? [signal] : [signal, finish];
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      for (const s of signals) s.removeEventListener('abort', done);
      resolve();
    }
    for (const s of signals) s.addEventListener('abort', done, { once: true });
    if (signals.some((s) => s.aborted)) done();
  });
}
