import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkerPool, type WorkerPoolOptions } from './worker-pool.js';

const handlers = new URL('../../../test/fixtures/worker-pool-handlers.ts', import.meta.url);

const never = new AbortController().signal;
const pools: WorkerPool[] = [];
const create = (options: Partial<WorkerPoolOptions> = {}): WorkerPool => {
  const pool = new WorkerPool({ handlers, timeoutMs: 200, threads: 1, ...options });
  pools.push(pool);
  return pool;
};
/** Which of two requests answered first. */
const first = (a: Promise<unknown>, b: Promise<unknown>): Promise<'a' | 'b'> => Promise.race([a.then(() => 'a' as const), b.then(() => 'b' as const)]);

afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});

describe('WorkerPool, one request', () => {
  it('returns what the script handles a request to', async () => {
    const pool = create();
    expect(await pool.run('o', 21, never)).toEqual({ status: 'done', value: 42 });
    expect(await pool.run('o', 2, never)).toEqual({ status: 'done', value: 4 });
  });

  it.runIf(process.platform === 'linux')('loads its module at the event loop’s priority and runs requests below it (nice 10)', async () => {
    const own = Number(readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1]!.split(' ')[16]);
    expect(await create().run('o', 'nice', never)).toEqual({ status: 'done', value: { atLoad: own, now: Math.max(own, 10) } });
  });

  it('reports an error thrown by the script as a failure carrying its message only', async () => {
    expect(await create().run('o', 'throw', never)).toEqual({ status: 'failed', error: 'it broke' });
  });

  it('times out a runaway request and answers the next one from a fresh thread', async () => {
    // The bound counts the thread's CPU time: the spin reaches it, and a fresh thread kept off the CPU by a busy machine is not charged for the wait.
    const pool = create({ timeoutMs: 150, cpuTime: { wallLimitMs: 10_000 } });
    const started = performance.now();
    expect(await pool.run('o', 'spin', never)).toEqual({ status: 'timeout' });
    // The spin never ends by itself; the bound covers the thread's start-up too, seconds on a busy machine.
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(await pool.run('o', 5, never)).toEqual({ status: 'done', value: 10 });
  });

  it('stops a running request when its signal aborts', async () => {
    const pool = create({ timeoutMs: 10_000 });
    const controller = new AbortController();
    const pending = pool.run('o', 'spin', controller.signal);
    setTimeout(() => controller.abort(), 100);
    expect(await pending).toEqual({ status: 'aborted' });
    expect(await pool.run('o', 1, never)).toEqual({ status: 'done', value: 2 });
  });

  it('reports a thread that dies as crashed and recovers', async () => {
    const pool = create();
    expect(await pool.run('o', 'exit', never)).toEqual({ status: 'crashed' });
    expect(await pool.run('o', 3, never)).toEqual({ status: 'done', value: 6 });
  });

  it('reports a reply that cannot be cloned as crashed rather than hanging', async () => {
    expect(await create({ timeoutMs: 10_000 }).run('o', 'clone', never)).toEqual({ status: 'crashed' });
  });

  it('does not count thread start-up against the request time bound', async () => {
    expect(await create({ timeoutMs: 100, workerData: { startupMs: 400 } }).run('o', 1, never)).toEqual({ status: 'done', value: 2 });
  });

  it('bounds preparing a request and working on it separately, so moving large data does not eat into the work', async () => {
    // Each phase 60 % of the bound, together 120 %: 800 ms of slack each for a thread a busy machine keeps waiting.
    const pool = create({ timeoutMs: 2_000 });
    expect(await pool.run('o', { prepareMs: 1_200, handleMs: 1_200 }, never)).toEqual({ status: 'done', value: 'handled' });
    expect(await pool.run('o', { prepareMs: 0, handleMs: 10_000 }, never)).toEqual({ status: 'timeout' });
  });

  // Linux keeps CPU time per thread; elsewhere bounds count wall time.
  it.runIf(process.platform === 'linux')('with cpuTime, bounds what the thread ran, not the time it was kept off the CPU, and still stops a runaway', async () => {
    const pool = create({ timeoutMs: 150, cpuTime: { wallLimitMs: 10_000 } });
    // Off the CPU four times the bound: under a wall-clock bound this was a timeout (a busy machine's false runaway).
    expect(await pool.run('o', { sleepMs: 600 }, never)).toEqual({ status: 'done', value: 'slept' });
    expect(await pool.run('o', 'spin', never)).toEqual({ status: 'timeout' });
  });

  it.runIf(process.platform === 'linux')('with cpuTime, stops a request at its wall limit however little it ran', async () => {
    const pool = create({ timeoutMs: 150, cpuTime: { wallLimitMs: 1_500 } });
    expect(await pool.run('o', { sleepMs: 10_000 }, never)).toEqual({ status: 'timeout' });
    expect(await pool.run('o', 4, never)).toEqual({ status: 'done', value: 8 });
  });

  it('refuses nonsense sizes when it is built', () => {
    expect(() => new WorkerPool({ handlers, timeoutMs: 100, threads: 0 })).toThrow(RangeError);
    expect(() => new WorkerPool({ handlers, timeoutMs: 100, maxWaiting: 1.5 })).toThrow(RangeError);
  });
});

describe('WorkerPool, many requests', () => {
  it("answers one owner's queued requests in order and drops a queued one whose signal aborts", async () => {
    const pool = create({ timeoutMs: 150, cpuTime: { wallLimitMs: 10_000 } });
    const controller = new AbortController();
    const runaway = pool.run('o', 'spin', never);
    const dropped = pool.run('o', 'x-aborted', controller.signal);
    const third = pool.run('o', 4, never);
    controller.abort();
    expect(await dropped).toEqual({ status: 'aborted' });
    expect(await runaway).toEqual({ status: 'timeout' });
    expect(await third).toEqual({ status: 'done', value: 8 });
  });

  it('leaves another owner a thread while one owner runs away on the rest', async () => {
    const pool = create({ threads: 2, timeoutMs: 10_000 });
    const stop = new AbortController();
    const runaways = [pool.run('mallory', 'spin', stop.signal), pool.run('mallory', 'spin', stop.signal)];
    // Had mallory held both threads, bob would wait for one of her requests to end (here: never).
    expect(await pool.run('bob', 'hello', never)).toEqual({ status: 'done', value: 'hello' });
    stop.abort();
    expect(await Promise.all(runaways)).toEqual([{ status: 'aborted' }, { status: 'aborted' }]);
  });

  it('serves owners in turn: a newcomer goes before the rest of a long line', async () => {
    const pool = create({ timeoutMs: 10_000 });
    const stop = new AbortController();
    const running = pool.run('mallory', 'spin', stop.signal);
    const hers = pool.run('mallory', 'hers', never);
    const his = pool.run('bob', 'his', never);
    stop.abort();
    expect(await running).toEqual({ status: 'aborted' });
    expect(await first(his, hers)).toBe('a');
    expect(await hers).toEqual({ status: 'done', value: 'hers' });
  });

  it("refuses at once what would wait past the owner's bound or the pool's, and nobody already waiting", async () => {
    const pool = create({ timeoutMs: 10_000, maxWaitingPerOwner: 2, maxWaiting: 3 });
    const stop = new AbortController();
    const running = pool.run('mallory', 'spin', stop.signal);
    const waiting = [pool.run('mallory', 'm1', never), pool.run('mallory', 'm2', never)];
    expect(await pool.run('mallory', 'm3', never)).toEqual({ status: 'busy' });
    const bobs = pool.run('bob', 'b1', never);
    expect(await pool.run('carol', 'c1', never)).toEqual({ status: 'busy' });
    stop.abort();
    expect(await running).toEqual({ status: 'aborted' });
    expect(await Promise.all([...waiting, bobs])).toEqual([
      { status: 'done', value: 'm1' },
      { status: 'done', value: 'm2' },
      { status: 'done', value: 'b1' },
    ]);
  });

  it('answers aborted once closed, for running, queued and later requests alike', async () => {
    const pool = create({ timeoutMs: 5_000 });
    const running = pool.run('o', 'spin', never);
    const queued = pool.run('o', 1, never);
    await pool.close();
    expect(await running).toEqual({ status: 'aborted' });
    expect(await queued).toEqual({ status: 'aborted' });
    expect(await pool.run('o', 1, never)).toEqual({ status: 'aborted' });
  });
});
