// One warm thread that writes the small files of staged archives (staging-writes-requests.ts), for
// every registration of this process in turn. The event loop reads, inflates and meters each entry as
// before and hands the thread batches of up to BATCH_FILES files or BATCH_BYTES bytes; the thread's
// synchronous writes cost half the CPU of promise round trips per open, write and close (decision 3606).
// When the thread's line is full the caller writes the batch itself: a registration never waits behind
// a queue it cannot see, and never fails for it.
import { siblingModule, WorkerPool } from '../../platform/worker/index.js';
import type { StagingWriteBatch } from './staging-writes-requests.js';

export const BATCH_FILES = 128;
export const BATCH_BYTES = 1024 * 1024;
/** Every batch goes through one line; a batch of 1 MiB that takes a minute is a broken disk. */
const BATCH_TIMEOUT_MS = 60_000;
const OWNER = 'staging';

/** What staging hands its small files to: true once the batch is written, false when it wrote nothing and the caller should. */
export interface StagedFileWriter {
  write(batch: StagingWriteBatch): Promise<boolean>;
}

export class StagingWriter implements StagedFileWriter {
  readonly #pool: WorkerPool;

  constructor() {
    this.#pool = new WorkerPool({
      handlers: siblingModule('staging-writes-requests', import.meta.url),
      threads: 1,
      maxWaitingPerOwner: 4,
      maxWaiting: 4,
      timeoutMs: BATCH_TIMEOUT_MS,
      // Disk writes, not CPU work on untrusted input: the thread runs at the event loop's priority.
      niceness: 0,
      resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 8, stackSizeMb: 1 },
    });
  }

  /** True once every file of the batch is written; false when nothing was written because the line was full. Rejects when a file could not be written. */
  async write(batch: StagingWriteBatch): Promise<boolean> {
    const outcome = await this.#pool.run(OWNER, batch, NEVER);
    if (outcome.status === 'done') return true;
    if (outcome.status === 'busy') return false;
    throw new Error(outcome.status === 'failed' ? `staging write failed: ${outcome.error}` : `staging write ${outcome.status}`);
  }

  close(): Promise<void> {
    return this.#pool.close();
  }
}

/** A staging is never abandoned half-written: it fails or finishes, and close() ends what waits. */
const NEVER = new AbortController().signal;
