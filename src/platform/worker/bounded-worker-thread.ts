// The entry of every pool thread: says where its CPU clock is, loads the handler module its WorkerPool
// named (whatever that module warms up at load happens before READY, so it never counts against a
// request's time bound), lowers its own CPU priority, then answers each request with the module's `prepare`
// and `handle`, saying STARTED between the two so that the time bound on the work starts there.
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { ownCpuClock } from './thread-cpu-clock.js';
import { WORKER_READY, WORKER_STARTED, type ThreadHello, type WorkerHandlers, type WorkerReply } from './worker-protocol.js';

const port = parentPort;
if (port === null) throw new Error('bounded-worker-thread.js runs only as a worker thread');
const { handlers, niceness } = workerData as { readonly handlers: string; readonly niceness: number };
port.postMessage({ cpuClock: ownCpuClock() } satisfies ThreadHello);
// Our own module loads at the event loop's priority: at nice 10 on a busy machine a thread took seconds
// to load, and a caller's first call waited for it (its deadline counts from the request). Only the
// requests' work, which callers write, runs below the event loop.
const { prepare, handle } = (await import(handlers)) as WorkerHandlers;
lowerPriority(niceness);

port.on('message', (request: unknown) => {
  let reply: WorkerReply;
  try {
    const prepared = prepare === undefined ? request : prepare(request);
    port.postMessage(WORKER_STARTED);
    reply = { ok: true, value: handle(prepared) };
  } catch (error) {
    reply = { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply);
});
port.postMessage(WORKER_READY);

/**
 * Untrusted work runs below the event loop: when a runaway request and the event loop want the same
 * core, the event loop (answering every other request) gets it. Linux keeps a nice value per thread,
 * and this thread's id is the last part of /proc/thread-self; elsewhere the thread keeps its priority.
 */
function lowerPriority(value: number): void {
  if (value === 0) return;
  try {
    setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), value);
  } catch {
    // Not Linux, or not allowed: the time bound still holds, only contention is shared evenly.
  }
}
