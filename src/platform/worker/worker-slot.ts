// One thread of a worker pool: started on first use and kept warm, it runs one request at a time under a
// hard time bound. A request that overruns, is aborted or kills its thread stops that thread only, and a
// fresh one starts at once (unless closed) so the next request finds it loading or warm. Time spent
// waiting for the thread to load never counts against a request's bound; receiving and preparing the
// request has a bound of its own, and the bound on the work starts when the thread says STARTED. A
// spec with `cpuTime` counts the bounds in the thread's CPU time (decision 3502).
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { readCpuMs } from './thread-cpu-clock.js';
import { ABORTED, toOutcome, type WorkerOutcome } from './worker-outcome.js';
import { isThreadHello, siblingModule, threadStart, WORKER_READY, WORKER_STARTED } from './worker-protocol.js';

const THREAD_START = threadStart(siblingModule('bounded-worker-thread', import.meta.url));
/**
 * A thread at nice 10 gets about a tenth of a core it contends for with the event loop: enough for
 * ordinary requests (milliseconds of work), while a runaway one no longer delays the loop's answers.
 */
const DEFAULT_NICENESS = 10;

/** What every thread of a pool loads and how long one request may run on it. */
export interface ThreadSpec {
  /**
   * The module loaded once per thread, before it takes requests (worker-protocol.ts): it exports
   * `handle(request)`, returning a structured-cloneable value or throwing (the error's message becomes
   * a `failed` outcome). Build it with `siblingModule('name', import.meta.url)`.
   */
  readonly handlers: URL;
  /** Extra `workerData` the handler module may read (its `handlers` entry is the pool's). */
  readonly workerData?: Readonly<Record<string, unknown>>;
  /** Bound on one request's work inside the thread (and, separately, on receiving and preparing it). */
  readonly timeoutMs: number;
  readonly resourceLimits?: ResourceLimits;
  /** How far below the event loop the threads run (a nice value, 0–19; Linux only); default 10. */
  readonly niceness?: number;
  /**
   * Count `timeoutMs` in the thread's CPU time (where Linux keeps it per thread; elsewhere wall time),
   * so a request is not charged for the time its low-priority thread waited for a core while the
   * machine was busy; a request is stopped anyway once it has taken `wallLimitMs` of wall time.
   * Without it the bounds are wall time.
   */
  readonly cpuTime?: { readonly wallLimitMs: number };
}

interface Thread {
  readonly worker: Worker;
  ready: boolean;
  /** Where the thread's CPU time is read (thread-cpu-clock.ts), once it said so; null where nowhere. */
  cpuClock: string | null;
}

/** When a bound started: wall time, and the thread's CPU time when it is counted in CPU time. */
interface BoundStart {
  readonly wallMs: number;
  readonly cpuMs: number | null;
}

export class WorkerSlot {
  readonly #spec: ThreadSpec;
  #thread: Thread | undefined;
  #busy = false;
  #closed = false;

  constructor(spec: ThreadSpec) {
    this.#spec = spec;
  }

  get busy(): boolean {
    return this.#busy;
  }

  /** Whether a request given now starts at once: the thread has loaded its handler module. */
  get warm(): boolean {
    return this.#thread?.ready === true;
  }

  /** Runs one request; the slot is busy until `done` receives the outcome (exactly once). */
  run(request: unknown, signal: AbortSignal, done: (outcome: WorkerOutcome) => void): void {
    if (this.#busy) throw new Error('a worker slot runs one request at a time');
    if (this.#closed) return done(ABORTED);
    this.#busy = true;
    const thread = this.#thread ?? this.#spawn();
    const { worker } = thread;
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    const settle = (outcome: WorkerOutcome, discard: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      worker.off('message', onMessage).off('exit', onExit).unref();
      signal.removeEventListener('abort', onAbort);
      if (discard) this.#discard(thread);
      this.#busy = false;
      done(outcome);
    };
    const bound = (): void => {
      clearTimeout(timer);
      const since = this.#boundStart(thread);
      // Past the bound in wall time; counted in CPU time, it waits again for what is left of it.
      const check = (): void => {
        const left = this.#leftOf(thread, since);
        if (left > 0) timer = setTimeout(check, Math.max(1, left));
        else settle({ status: 'timeout' }, true);
      };
      timer = setTimeout(check, this.#spec.timeoutMs);
    };
    const start = (): void => {
      try {
        worker.postMessage(request);
      } catch {
        return settle({ status: 'failed', error: 'the request could not be sent to the worker' }, false);
      }
      // Started once the request is sent: copying it here is this thread's work, not the worker's.
      bound();
    };
    const onMessage = (message: unknown): void => {
      if (message === WORKER_READY) start();
      else if (message === WORKER_STARTED) bound();
      else if (!isThreadHello(message)) settle(toOutcome(message), false);
    };
    // An uncaught error in the thread is always followed by 'exit'; so is termination by close().
    const onExit = (): void => settle(this.#closed ? ABORTED : { status: 'crashed' }, true);
    const onAbort = (): void => settle(ABORTED, true);
    // Referenced while a request runs, so the process waits for its answer; idle threads never hold it open.
    worker.on('message', onMessage).on('exit', onExit).ref();
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) onAbort();
    else if (thread.ready) start();
  }

  async close(): Promise<void> {
    this.#closed = true;
    const thread = this.#thread;
    this.#thread = undefined;
    if (thread) await thread.worker.terminate();
  }

  #spawn(): Thread {
    const { handlers, workerData, resourceLimits, niceness = DEFAULT_NICENESS } = this.#spec;
    const worker = new Worker(THREAD_START, { workerData: { ...workerData, handlers: handlers.href, niceness }, resourceLimits });
    const thread: Thread = { worker, ready: false, cpuClock: null };
    worker.unref();
    worker.on('message', (message) => {
      if (message === WORKER_READY) thread.ready = true;
      else if (isThreadHello(message)) thread.cpuClock = message.cpuClock;
    });
    // Without a listener an 'error' would crash this process; the request's 'exit' listener reports it.
    worker.on('error', () => undefined);
    worker.on('exit', () => {
      if (this.#thread === thread) this.#thread = undefined;
    });
    this.#thread = thread;
    return thread;
  }

  #boundStart(thread: Thread): BoundStart {
    const clock = this.#spec.cpuTime === undefined ? null : thread.cpuClock;
    return { wallMs: performance.now(), cpuMs: clock === null ? null : readCpuMs(clock) };
  }

  /**
   * Milliseconds of a bound left: of the thread's CPU time, and never past the wall limit. Read when
   * the STARTED message arrives, the CPU time the thread spent before it arrived is not counted: a
   * request gets at least its bound. Without a CPU clock (or once the thread is gone), none.
   */
  #leftOf(thread: Thread, since: BoundStart): number {
    const { timeoutMs, cpuTime } = this.#spec;
    const now = since.cpuMs === null || thread.cpuClock === null ? null : readCpuMs(thread.cpuClock);
    if (cpuTime === undefined || since.cpuMs === null || now === null) return 0;
    return Math.min(timeoutMs - (now - since.cpuMs), cpuTime.wallLimitMs - (performance.now() - since.wallMs));
  }

  /** Stops a thread that overran, was aborted or died, and keeps a fresh one loading unless closed. */
  #discard(thread: Thread): void {
    if (this.#thread === thread) this.#thread = undefined;
    thread.worker.terminate().catch(() => undefined);
    if (!this.#closed && this.#thread === undefined) this.#spawn();
  }
}
