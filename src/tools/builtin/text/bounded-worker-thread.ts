// The entry of every bounded worker thread: loads the handler module its BoundedWorker named (whatever
// that module warms up at load happens before READY, so it never counts against a request's time
// bound), then answers each request with the module's `handle`.
import { parentPort, workerData } from 'node:worker_threads';
import { WORKER_READY, type WorkerHandlers, type WorkerReply } from './worker-protocol.js';

const port = parentPort;
if (port === null) throw new Error('bounded-worker-thread.js runs only as a worker thread');
const { handlers } = workerData as { readonly handlers: string };
const { handle } = (await import(handlers)) as WorkerHandlers;

port.on('message', (request: unknown) => {
  let reply: WorkerReply;
  try {
    reply = { ok: true, value: handle(request) };
  } catch (error) {
    reply = { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply);
});
port.postMessage(WORKER_READY);
