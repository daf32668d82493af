import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../platform/clock/index.js';
import { createMemoryStorage, type RecordKey, type Storage, type StoredRecord } from '../platform/storage/index.js';
import { RunEngine } from './run-engine.js';
import type { LiveRun, RunKind, RunObserver } from './run-kind.js';
import { stopCause } from './stop-reasons.js';

const silent = { warn: () => undefined, error: () => undefined, info: () => undefined };
const LIVE = ['Queued', 'Running'];

interface Harness {
  readonly engine: RunEngine;
  readonly executed: LiveRun[];
  readonly takenOver: StoredRecord[];
  readonly abandoned: RecordKey[];
  finish(id: string): void;
}

function harness(storage: Storage, clock: ManualClock, instanceId: string, takeOver: 'execute' | 'settled' = 'execute', observe?: RunObserver): Harness {
  const executed: LiveRun[] = [];
  const takenOver: StoredRecord[] = [];
  const abandoned: RecordKey[] = [];
  const finishers = new Map<string, () => void>();
  const engine = new RunEngine({ storage, clock, instanceId, leaseTtlMs: 1_000, log: silent, ...(observe === undefined ? {} : { observe }) });
  const kind: RunKind = {
    collection: 'job',
    liveStates: LIVE,
    lane: { maxConcurrent: 2 },
    execute: (run) =>
      new Promise<void>((resolve) => {
        executed.push(run);
        finishers.set(run.key.id, resolve);
        run.signal.addEventListener('abort', () => resolve(), { once: true });
      }),
    takeOver: async (record) => {
      takenOver.push(record);
      return takeOver;
    },
    abandon: async (key) => {
      abandoned.push(key);
    },
  };
  engine.register(kind);
  return { engine, executed, takenOver, abandoned, finish: (id) => finishers.get(id)?.() };
}

/** Engines the current test started; each is stopped after it (stop is idempotent). */
const started: RunEngine[] = [];

/** A clock and one storage that every instance of a test shares, and a way to start instances on it. */
function world(options: { durable?: boolean } = {}) {
  const clock = new ManualClock();
  const memory = createMemoryStorage({ clock });
  const storage: Storage = options.durable === true ? { ...memory, durable: true } : memory;
  const instance = (instanceId: string, takeOver: 'execute' | 'settled' = 'execute', observe?: RunObserver): Harness => {
    const h = harness(storage, clock, instanceId, takeOver, observe);
    started.push(h.engine);
    return h;
  };
  return { clock, storage, instance };
}

const settle = async (): Promise<void> => {
  for (let i = 0; i < 10; i += 1) await new Promise((resolve) => setImmediate(resolve));
};

async function admit(engine: RunEngine, clock: ManualClock, id: string, ownerId = 'alice'): Promise<RecordKey> {
  const key = { collection: 'job', ownerId, id };
  const result = await engine.admit({ ...key, state: 'Queued', createdAt: clock.now(), data: {} }, { ownerCap: { max: 3, states: LIVE } }, { leased: true });
  expect(result.outcome).toBe('inserted');
  return key;
}

describe('RunEngine', () => {
  afterEach(async () => {
    for (const engine of started.splice(0)) await engine.stop(100);
  });

  it('admits a run leased to this instance and executes it through its kind’s lane', async () => {
    const { clock, storage, instance } = world();
    const h = instance('i1');
    const key = await admit(h.engine, clock, 'r1');
    expect((await storage.records.get(key))?.leaseHolder).toBe('i1');
    h.engine.dispatch(key);
    await settle();
    expect(h.executed.map((run) => run.key.id)).toEqual(['r1']);
    expect(h.engine.isExecutingHere(key)).toBe(true);
    h.finish('r1');
    await h.engine.idle();
    expect(h.engine.isExecutingHere(key)).toBe(false);
  });

  it('refuses admission over the owner cap', async () => {
    const { clock, instance } = world();
    const h = instance('i1');
    for (const id of ['a', 'b', 'c']) await admit(h.engine, clock, id);
    const refused = await h.engine.admit(
      { collection: 'job', ownerId: 'alice', id: 'd', state: 'Queued', createdAt: clock.now(), data: {} },
      { ownerCap: { max: 3, states: LIVE } },
      { leased: true },
    );
    expect(refused.outcome).toBe('owner-cap');
  });

  it('cancels a run executing on another instance through the storage’s signals', async () => {
    const { clock, instance } = world();
    const a = instance('a');
    const b = instance('b');
    const key = await admit(a.engine, clock, 'r1');
    a.engine.dispatch(key);
    await settle();
    expect(await b.engine.cancel(key)).toBe(false);
    await settle();
    expect(stopCause(a.executed[0]!.signal)).toBe('cancelled');
  });

  it('passes other messages to the executing run', async () => {
    const { clock, instance } = world();
    const a = instance('a');
    const key = await admit(a.engine, clock, 'r1');
    a.engine.dispatch(key);
    await settle();
    const heard: string[] = [];
    a.executed[0]!.onMessage((m) => heard.push(m));
    await a.engine.notify(key, 'approval');
    await settle();
    expect(heard).toEqual(['approval']);
  });

  it('takes over a live run whose lease lapsed, exactly once among competing instances', async () => {
    const { clock, instance } = world();
    const dead = instance('dead');
    const b = instance('b');
    const c = instance('c');
    await admit(dead.engine, clock, 'orphan');
    clock.advance(1_000);
    await Promise.all([b.engine.scan(), c.engine.scan()]);
    await settle();
    expect(b.takenOver.length + c.takenOver.length).toBe(1);
    expect(b.executed.length + c.executed.length).toBe(1);
  });

  it('never takes over a run it executes itself, even when its clock jumped past the lease', async () => {
    const { clock, instance } = world();
    const h = instance('i1');
    const key = await admit(h.engine, clock, 'r1');
    h.engine.dispatch(key);
    await settle();
    clock.advance(5_000);
    await h.engine.scan();
    expect(h.takenOver).toEqual([]);
    await h.engine.heartbeat();
    expect(h.executed[0]!.signal.aborted).toBe(false);
  });

  it('stops a run here once the heartbeat finds another instance took its lease', async () => {
    const { clock, instance } = world();
    const a = instance('a');
    const b = instance('b');
    const key = await admit(a.engine, clock, 'r1');
    a.engine.dispatch(key);
    await settle();
    clock.advance(1_000);
    await b.engine.scan();
    await a.engine.heartbeat();
    expect(stopCause(a.executed[0]!.signal)).toBe('lease-lost');
  });

  it('lets go of a lease it holds on a run no longer alive here, so a scan resumes it (here or elsewhere)', async () => {
    const { clock, storage, instance } = world();
    const h = instance('i1');
    // Leased to this instance but never dispatched here: as if its execution had ended without settling it.
    const key = await admit(h.engine, clock, 'orphan');
    await h.engine.heartbeat();
    expect((await storage.records.lapsed(['job'], LIVE, 10)).map((r) => r.id)).toEqual(['orphan']);
    await h.engine.scan();
    await settle();
    expect(h.takenOver.map((r) => r.id)).toEqual(['orphan']);
    expect(h.executed.map((run) => run.key.id)).toEqual(['orphan']);
    void key;
  });

  it('makes a stopping instance’s leases claimable at once on a durable storage', async () => {
    const { clock, instance } = world({ durable: true });
    const a = instance('a');
    const b = instance('b');
    const key = await admit(a.engine, clock, 'r1');
    a.engine.dispatch(key);
    await settle();
    await a.engine.stop(1_000);
    await b.engine.scan();
    await settle();
    expect(b.executed.map((run) => run.key.id)).toEqual(['r1']);
  });

  it('claims a run waiting for a stream exactly once and executes it outside the lane', async () => {
    const { clock, storage, instance } = world();
    const a = instance('a');
    const b = instance('b');
    const key = { collection: 'job', ownerId: 'alice', id: 'r' };
    await storage.records.insert({ ...key, state: 'Queued', createdAt: clock.now(), lease: { holder: 'reserved', expiresAt: clock.now() + 60_000 }, data: {} });
    const claims = await Promise.all([a.engine.claimInline(key, 'reserved', LIVE), a.engine.claimInline(key, 'reserved', LIVE), b.engine.claimInline(key, 'reserved', LIVE)]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    await settle();
    expect(a.executed.length + b.executed.length).toBe(1);
  });

  it('on stop aborts live runs as the host stopping and hands unstarted ones to their kind', async () => {
    const { clock, instance } = world();
    const h = instance('i1');
    const keys = [await admit(h.engine, clock, 'a'), await admit(h.engine, clock, 'b'), await admit(h.engine, clock, 'c')];
    for (const key of keys) h.engine.dispatch(key);
    await settle();
    await h.engine.stop(1_000);
    expect(h.abandoned.map((k) => k.id)).toEqual(['c']);
    expect(h.executed.map((run) => stopCause(run.signal))).toEqual(['host-stopping', 'host-stopping']);
  });

  it('hands every execution to the observer, which sees it start and settle around the kind’s execute', async () => {
    const { clock, instance } = world();
    const seen: string[] = [];
    const observe: RunObserver = async (key, execute) => {
      seen.push(`start ${key.id}`);
      await execute();
      seen.push(`end ${key.id}`);
    };
    const h = instance('i1', 'execute', observe);
    const key = await admit(h.engine, clock, 'r1');
    h.engine.dispatch(key);
    await settle();
    expect(seen).toEqual(['start r1']);
    expect(h.executed.map((run) => run.key.id)).toEqual(['r1']);
    h.finish('r1');
    await h.engine.idle();
    expect(seen).toEqual(['start r1', 'end r1']);
  });
});
