import { afterEach, describe, expect, it } from 'vitest';
import { BoundedWorker } from './bounded-worker.js';

const handlers = new URL('../../../../test/fixtures/bounded-worker-handlers.ts', import.meta.url);

const never = new AbortController().signal;
const workers: BoundedWorker[] = [];
const create = (timeoutMs = 200, workerData: Record<string, unknown> = {}): BoundedWorker => {
  const worker = new BoundedWorker({ handlers, timeoutMs, workerData });
  workers.push(worker);
  return worker;
};

afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.close()));
});

describe('BoundedWorker', () => {
  it('returns what the script handles a request to', async () => {
    const worker = create();
    expect(await worker.run(21, never)).toEqual({ status: 'done', value: 42 });
    expect(await worker.run(2, never)).toEqual({ status: 'done', value: 4 });
  });

  it('reports an error thrown by the script as a failure carrying its message only', async () => {
    expect(await create().run('throw', never)).toEqual({ status: 'failed', error: 'it broke' });
  });

  it('times out a runaway request and answers the next one from a fresh thread', async () => {
    const worker = create(150);
    const started = performance.now();
    expect(await worker.run('spin', never)).toEqual({ status: 'timeout' });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(await worker.run(5, never)).toEqual({ status: 'done', value: 10 });
  });

  it('stops a running request when its signal aborts', async () => {
    const worker = create(10_000);
    const controller = new AbortController();
    const pending = worker.run('spin', controller.signal);
    setTimeout(() => controller.abort(), 100);
    expect(await pending).toEqual({ status: 'aborted' });
    expect(await worker.run(1, never)).toEqual({ status: 'done', value: 2 });
  });

  it('answers queued requests in order and drops a queued one whose signal aborts', async () => {
    const worker = create(150);
    const controller = new AbortController();
    const first = worker.run('spin', never);
    const second = worker.run('x-aborted', controller.signal);
    const third = worker.run(4, never);
    controller.abort();
    expect(await second).toEqual({ status: 'aborted' });
    expect(await first).toEqual({ status: 'timeout' });
    expect(await third).toEqual({ status: 'done', value: 8 });
  });

  it('reports a thread that dies as crashed and recovers', async () => {
    const worker = create();
    expect(await worker.run('exit', never)).toEqual({ status: 'crashed' });
    expect(await worker.run(3, never)).toEqual({ status: 'done', value: 6 });
  });

  it('reports a reply that cannot be cloned as crashed rather than hanging', async () => {
    const worker = create();
    expect(await worker.run('clone', never)).toEqual({ status: 'crashed' });
  });

  it('does not count thread start-up against the request time bound', async () => {
    const worker = create(100, { startupMs: 400 });
    expect(await worker.run(1, never)).toEqual({ status: 'done', value: 2 });
  });

  it('answers aborted once closed, for queued and later requests alike', async () => {
    const worker = create(5_000);
    const running = worker.run('spin', never);
    const queued = worker.run(1, never);
    await worker.close();
    expect(await running).toEqual({ status: 'aborted' });
    expect(await queued).toEqual({ status: 'aborted' });
    expect(await worker.run(1, never)).toEqual({ status: 'aborted' });
  });
});
