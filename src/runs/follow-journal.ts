// Follows a run's numbered events from any instance: everything after `after`, then each new event as
// commits append them, woken by the journal's watch (a notification from whichever instance executes
// the run). A periodic re-read covers a notification lost while a listener reconnected. Ends when the
// signal aborts; the caller stops earlier on a terminal event.
import type { JournalEvent, RecordKey, RunJournal } from '../platform/storage/index.js';

const BATCH = 256;
/** Re-read this often even without a notification (a safety net, not the delivery path). */
const RECHECK_MS = 1_000;

export async function* followJournal<E>(journal: RunJournal, run: RecordKey, after: number, signal: AbortSignal): AsyncGenerator<JournalEvent<E>> {
  let cursor = after;
  let dirty = true;
  let wake: (() => void) | undefined;
  const stop = journal.watch(run, () => {
    dirty = true;
    wake?.();
  });
  try {
    while (!signal.aborted) {
      dirty = false;
      const events = await journal.events<E>(run, cursor, BATCH);
      for (const event of events) {
        cursor = event.seq;
        yield event;
        if (signal.aborted) return;
      }
      if (events.length === BATCH || dirty || signal.aborted) continue;
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
      });
    }
  } finally {
    stop();
  }
}
