// Runs CPU-bound work on untrusted input in one warm worker thread under a hard time bound: a request that
// overruns or is aborted terminates the thread, and a fresh one is started for whatever comes next. It
// does not know what the work is (the caller names a handler module, a real typechecked module) and runs
// one request at a time, queueing the rest; time spent queued or starting a thread counts against the
// caller's signal only.
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { siblingModule, threadStart, WORKER_READY } from './worker-protocol.js';

export type WorkerOutcome =
  | { readonly status: 'done'; readonly value: unknown }
  | { readonly status: 'failed'; readonly error: string }
  | { readonly status: 'timeout' | 'aborted' | 'crashed' };

export interface BoundedWorkerOptions {
  /**
   * The module loaded once per thread, before it takes requests (worker-protocol.ts): it exports
   * `handle(request)`, returning a structured-cloneable value or throwing (the error's message becomes
   * a `failed` outcome). Build it with `siblingModule('name', import.meta.url)`.
   */
  readonly handlers: URL;
  /** Extra `workerData` the handler module may read (its `handlers` entry is this worker's). */
  readonly workerData?: Readonly<Record<string, unknown>>;
  /** Bound on one request's run time inside the thread. */
  readonly timeoutMs: number;
  readonly resourceLimits?: ResourceLimits;
}

interface Thread {
  readonly worker: Worker;
  ready: boolean;
}

interface Job {
  readonly request: unknown;
  readonly signal: AbortSignal;
  readonly resolve: (outcome: WorkerOutcome) => void;
  readonly leaveQueue: () => void;
}

const ABORTED: WorkerOutcome = { status: 'aborted' };
const THREAD_START = threadStart(siblingModule('bounded-worker-thread', import.meta.url));

function toOutcome(reply: unknown): WorkerOutcome {
  if (typeof reply === 'object' && reply !== null && 'ok' in reply) {
    if (reply.ok === true && 'value' in reply) return { status: 'done', value: reply.value };
    if (reply.ok === false && 'error' in reply && typeof reply.error === 'string') return { status: 'failed', error: reply.error };
  }
  return { status: 'failed', error: 'the worker sent a malformed reply' };
}

export class BoundedWorker {
  readonly #options: BoundedWorkerOptions;
  readonly #queue: Job[] = [];
  #thread: Thread | undefined;
  #busy = false;
  #closed = false;

  constructor(options: BoundedWorkerOptions) {
    this.#options = options;
  }

  /** Never rejects; the outcome says whether the request finished, failed, timed out, was aborted or crashed. */
  run(request: unknown, signal: AbortSignal): Promise<WorkerOutcome> {
    if (this.#closed || signal.aborted) return Promise.resolve(ABORTED);
    return new Promise((resolve) => {
      const onAbort = (): void => {
        const index = this.#queue.indexOf(job);
        if (index < 0) return;
        this.#queue.splice(index, 1);
        resolve(ABORTED);
      };
      const job: Job = { request, signal, resolve, leaveQueue: () => signal.removeEventListener('abort', onAbort) };
      signal.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(job);
      this.#next();
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const job of this.#queue.splice(0)) {
      job.leaveQueue();
      job.resolve(ABORTED);
    }
    const thread = this.#thread;
    this.#thread = undefined;
    if (thread) await thread.worker.terminate();
  }

  #next(): void {
    if (this.#busy) return;
    const job = this.#queue.shift();
    if (job === undefined) return;
    job.leaveQueue();
    this.#busy = true;
    this.#execute(job, (outcome) => {
      this.#busy = false;
      job.resolve(outcome);
      this.#next();
    });
  }

  #execute(job: Job, done: (outcome: WorkerOutcome) => void): void {
    const thread = this.#thread ?? this.#spawn();
    const { worker } = thread;
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    const settle = (outcome: WorkerOutcome, discard: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      worker.off('message', onMessage).off('exit', onExit).unref();
      job.signal.removeEventListener('abort', onAbort);
      if (discard) this.#discard(thread);
      done(outcome);
    };
    const start = (): void => {
      timer = setTimeout(() => settle({ status: 'timeout' }, true), this.#options.timeoutMs);
      try {
        worker.postMessage(job.request);
      } catch {
        settle({ status: 'failed', error: 'the request could not be sent to the worker' }, false);
      }
    };
    const onMessage = (message: unknown): void => (message === WORKER_READY ? start() : settle(toOutcome(message), false));
    // An uncaught error in the thread is always followed by 'exit'; so is termination by close().
    const onExit = (): void => settle(this.#closed ? ABORTED : { status: 'crashed' }, true);
    const onAbort = (): void => settle(ABORTED, true);
    worker.on('message', onMessage).on('exit', onExit).ref();
    job.signal.addEventListener('abort', onAbort, { once: true });
    if (job.signal.aborted) onAbort();
    else if (thread.ready) start();
  }

  #spawn(): Thread {
    const { handlers, workerData, resourceLimits } = this.#options;
    const worker = new Worker(THREAD_START, { workerData: { ...workerData, handlers: handlers.href }, resourceLimits });
    const thread: Thread = { worker, ready: false };
    worker.unref();
    worker.on('message', (message) => {
      if (message === WORKER_READY) thread.ready = true;
    });
    // Without a listener an 'error' would crash this process; the job's 'exit' listener reports it.
    worker.on('error', () => undefined);
    worker.on('exit', () => {
      if (this.#thread === thread) this.#thread = undefined;
    });
    this.#thread = thread;
    return thread;
  }

  /** Stops a thread that overran, was aborted or died, and keeps a fresh one warm unless closed. */
  #discard(thread: Thread): void {
    if (this.#thread === thread) this.#thread = undefined;
    thread.worker.terminate().catch(() => undefined);
    if (!this.#closed && this.#thread === undefined) this.#spawn();
  }
}
