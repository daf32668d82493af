import { afterEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../platform/clock/index.js';
import { createMemoryStorage, StorageUnavailableError, type InsertResult, type RecordKey, type Storage } from '../platform/storage/index.js';
import type { LiveRun } from './live-run.js';
import { RunEngine } from './run-engine.js';
import { INTERRUPTED, RunWaits, type Interrupted, type RunDecision, type RunEnding, type RunKind, type RunObserver } from './run-kind.js';
import type { RunMessage } from './run-message.js';
import { stopCause } from './stop-reasons.js';

const silent = { warn: () => undefined, error: () => undefined, info: () => undefined };
const LIVE = ['Queued', 'Running'];

interface JobData {
  readonly status: string;
  readonly resumable?: boolean;
}

/** How a test job's execute behaves: wait for `finish(id)` (or its signal), or what the test says. */
type Behaviour = (run: LiveRun<JobData>) => Promise<string | Interrupted>;

interface Harness {
  readonly engine: RunEngine;
  readonly executed: LiveRun<JobData>[];
  readonly endings: Array<{ readonly id: string; readonly ending: RunEnding<string> }>;
  finish(id: string, outcome?: string): void;
  behave(behaviour: Behaviour): void;
}

function harness(storage: Storage, instanceId: string, observe?: RunObserver): Harness {
  const executed: LiveRun<JobData>[] = [];
  const endings: Array<{ id: string; ending: RunEnding<string> }> = [];
  const finishers = new Map<string, (outcome: string) => void>();
  let behaviour: Behaviour = (run) =>
    new Promise<string>((resolve, reject) => {
      finishers.set(run.key.id, resolve);
      run.signal.addEventListener('abort', () => reject(run.signal.reason as Error), { once: true });
    });
  const engine = new RunEngine({ storage, instanceId, leaseTtlMs: 1_000, log: silent, ...(observe === undefined ? {} : { observe }) });
  storageOf.set(engine, storage);
  const kind: RunKind<JobData, string> = {
    collection: 'job',
    liveStates: LIVE,
    lane: { maxConcurrent: 2 },
    begin: (record) => (record.state === 'Queued' ? { state: 'Running', data: { ...record.data, status: 'Running' } } : null),
    resumes: (record) => record.data.resumable !== false,
    execute: (run) => {
      executed.push(run);
      return behaviour(run);
    },
    settle: async (run, ending) => {
      endings.push({ id: run.key.id, ending });
      const state = ending.type === 'completed' ? 'Succeeded' : ending.type === 'stopped' && ending.stopped.cause !== 'host-stopping' ? 'Cancelled' : 'Failed';
      const done = await run.commit({ events: [`end:${state}`], record: { patch: { state, data: { status: state }, lease: null } } });
      return done.committed ? state : null;
    },
  };
  engine.register(kind);
  return {
    engine,
    executed,
    endings,
    finish: (id, outcome = 'ok') => finishers.get(id)?.(outcome),
    behave: (next) => void (behaviour = next),
  };
}

/** Engines the current test started; each is stopped after it (stop is idempotent). */
const started: RunEngine[] = [];

/** A clock and one storage that every instance of a test shares, and a way to start instances on it. */
function world(options: { durable?: boolean } = {}) {
  const clock = new ManualClock();
  const memory = createMemoryStorage({ clock });
  const storage: Storage = options.durable === true ? { ...memory, durable: true } : memory;
  const instance = (instanceId: string, observe?: RunObserver): Harness => {
    const h = harness(storage, instanceId, observe);
    started.push(h.engine);
    return h;
  };
  return { clock, storage, instance };
}

const settle = async (): Promise<void> => {
  for (let i = 0; i < 10; i += 1) await new Promise((resolve) => setImmediate(resolve));
};

/** Each harness engine's storage. */
const storageOf = new WeakMap<RunEngine, Storage>();

/** Stores a Queued run under the owner cap, leased to `engine` (not dispatched). */
function admitLeased<D>(engine: RunEngine, record: RecordKey & { readonly createdAt: number; readonly data: D }): Promise<InsertResult<D>> {
  return storageOf.get(engine)!.records.insert({ ...record, state: 'Queued', lease: engine.lease(record) }, { ownerCap: { max: 3, states: LIVE } });
}

async function admit(engine: RunEngine, clock: ManualClock, id: string, data: JobData = { status: 'Queued' }): Promise<RecordKey> {
  const key = { collection: 'job', ownerId: 'alice', id };
  const result = await admitLeased(engine, { ...key, createdAt: clock.now(), data });
  expect(result.outcome).toBe('inserted');
  return key;
}

const stateOf = async (storage: Storage, key: RecordKey): Promise<string | null | undefined> => (await storage.records.get(key))?.state;
const eventsOf = async (storage: Storage, key: RecordKey): Promise<unknown[]> => (await storage.journal.events(key, 0, 100)).map((e) => e.event);

describe('RunEngine', () => {
  afterEach(async () => {
    for (const engine of started.splice(0)) await engine.stop(100);
  });

  it('begins a leased run with a compare-and-set to Running, executes it through its lane and has its family write the outcome', async () => {
    const { clock, storage, instance } = world();
    const h = instance('i1');
    const key = await admit(h.engine, clock, 'r1');
    expect((await storage.records.get(key))?.leaseHolder).toBe('i1');
    h.engine.dispatch(key);
    await settle();
    expect(await stateOf(storage, key)).toBe('Running');
    expect(h.executed[0]!.record.data.status).toBe('Running');
    expect(h.engine.isExecutingHere(key)).toBe(true);
    h.finish('r1', 'answer');
    await h.engine.idle();
    expect(h.endings).toEqual([{ id: 'r1', ending: { type: 'completed', outcome: 'answer', stopped: null } }]);
    expect(await stateOf(storage, key)).toBe('Succeeded');
  });

  describe('startRun: admission and dispatch in one insert (decision 2806)', () => {
    /** Starts a run the way a family does; the records each insert was given, in order. */
    async function startRun(h: Harness, storage: Storage, clock: ManualClock, id: string, inserted: Array<{ state: string; data: JobData }> = []) {
      const key = { collection: 'job', ownerId: 'alice', id };
      const result = await h.engine.startRun(key, { state: 'Queued', createdAt: clock.now(), data: { status: 'Queued' } }, (first) => {
        inserted.push({ state: first.state, data: first.data });
        return storage.records.insert({ ...key, state: first.state, createdAt: clock.now(), lease: first.lease, data: first.data }, { ownerCap: { max: 3, states: LIVE } });
      });
      return { key, result };
    }

    it('stores a run begun (Running, leased here) when a slot is free, and writes nothing more to begin it', async () => {
      const { clock, storage, instance } = world();
      const h = instance('i1');
      const inserted: Array<{ state: string; data: JobData }> = [];
      const { key, result } = await startRun(h, storage, clock, 'r1', inserted);
      expect(result.outcome).toBe('inserted');
      expect(inserted).toEqual([{ state: 'Running', data: { status: 'Running' } }]);
      const stored = await storage.records.get(key);
      expect(stored).toMatchObject({ state: 'Running', leaseHolder: 'i1', version: 1 });
      await settle();
      expect(h.executed.map((run) => [run.key.id, run.begunFrom])).toEqual([['r1', 'Queued']]);
      // No Queued → Running write followed the insert.
      expect((await storage.records.get(key))?.version).toBe(1);
      h.finish('r1');
      await h.engine.idle();
      expect(await stateOf(storage, key)).toBe('Succeeded');
    });

    it('stores a run Queued when the lane is full, and begins it with the compare-and-set once a slot frees', async () => {
      const { clock, storage, instance } = world();
      const h = instance('i1');
      const inserted: Array<{ state: string; data: JobData }> = [];
      await startRun(h, storage, clock, 'a', inserted);
      await startRun(h, storage, clock, 'b', inserted);
      const { key } = await startRun(h, storage, clock, 'c', inserted);
      expect(inserted.map((i) => i.state)).toEqual(['Running', 'Running', 'Queued']);
      await settle();
      expect(await stateOf(storage, key)).toBe('Queued');
      expect(h.engine.load('job')).toEqual({ queued: 1, executing: 2 });
      h.finish('a');
      await settle();
      expect(await stateOf(storage, key)).toBe('Running');
      expect(h.executed.map((run) => run.key.id)).toEqual(['a', 'b', 'c']);
    });

    it('gives the slot back when admission is refused', async () => {
      const { clock, storage, instance } = world();
      const h = instance('i1');
      const key = { collection: 'job', ownerId: 'alice', id: 'x' };
      const refused = await h.engine.startRun(key, { state: 'Queued', createdAt: clock.now(), data: { status: 'Queued' } }, async () => ({ outcome: 'owner-cap' as const }));
      expect(refused.outcome).toBe('owner-cap');
      await expect(h.engine.startRun(key, { state: 'Queued', createdAt: clock.now(), data: { status: 'Queued' } }, () => Promise.reject(new Error('insert failed')))).rejects.toThrow('insert failed');
      expect(h.engine.load('job')).toEqual({ queued: 0, executing: 0 });
      expect(await storage.records.get(key)).toBeUndefined();
    });

    it('stops a run begun at admission when a cancel reaches it between its insert and its execution', async () => {
      const { clock, storage, instance } = world();
      const h = instance('i1');
      const b = instance('b');
      const key = { collection: 'job', ownerId: 'alice', id: 'r1' };
      const result = await h.engine.startRun(key, { state: 'Queued', createdAt: clock.now(), data: { status: 'Queued' } }, async (first) => {
        const inserted = await storage.records.insert({ ...key, state: first.state, createdAt: clock.now(), lease: first.lease, data: first.data });
        // Another instance cancels the Running run before this one executes it.
        expect(await b.engine.cancel(key, { cause: 'client-too-slow' })).toBe('signalled');
        return inserted;
      });
      expect(result.outcome).toBe('inserted');
      await h.engine.idle();
      expect(await stateOf(storage, key)).toBe('Cancelled');
      expect(h.endings).toEqual([{ id: 'r1', ending: { type: 'stopped', stopped: { cause: 'client-too-slow' } } }]);
    });
  });

  it('refuses admission over the owner cap, and starts nothing', async () => {
    const { clock, storage, instance } = world();
    const h = instance('i1');
    for (const id of ['a', 'b', 'c']) await admit(h.engine, clock, id);
    const key = { collection: 'job', ownerId: 'alice', id: 'd' };
    const refused = await h.engine.startRun(key, { state: 'Queued', createdAt: clock.now(), data: {} }, (first) =>
      storage.records.insert({ ...key, state: first.state, createdAt: clock.now(), lease: first.lease, data: first.data }, { ownerCap: { max: 3, states: LIVE } }),
    );
    expect(refused.outcome).toBe('owner-cap');
    await settle();
    expect(h.executed).toEqual([]);
  });

  it('ends a run that has not started anywhere at once when cancelled, and never executes it', async () => {
    const { clock, storage, instance } = world();
    const a = instance('a');
    const b = instance('b');
    const key = await admit(a.engine, clock, 'r1');
    a.engine.dispatch(key);
    expect(await b.engine.cancel(key, { cause: 'client-too-slow' })).toBe('ended');
    await settle();
    expect(await stateOf(storage, key)).toBe('Cancelled');
    expect(b.endings).toEqual([{ id: 'r1', ending: { type: 'stopped', stopped: { cause: 'client-too-slow' } } }]);
    expect(a.executed).toEqual([]);
  });

  it('cancels a run executing on another instance with a typed message, and its family writes the cancel', async () => {
    const { clock, storage, instance } = world();
    const a = instance('a');
    const b = instance('b');
    const key = await admit(a.engine, clock, 'r1');
    a.engine.dispatch(key);
    await settle();
    expect(await b.engine.cancel(key)).toBe('signalled');
    await a.engine.idle();
    expect(stopCause(a.executed[0]!.signal)).toBe('cancelled');
    expect(a.endings[0]?.ending).toEqual({ type: 'stopped', stopped: { cause: 'cancelled' } });
    expect(await stateOf(storage, key)).toBe('Cancelled');
  });

  it('leaves an executing run to finish when asked to cancel only a queued one', async () => {
    const { clock, instance } = world();
    const a = instance('a');
    const key = await admit(a.engine, clock, 'r1');
    a.engine.dispatch(key);
    await settle();
    expect(await a.engine.cancel(key, { onlyIfQueued: true })).toBe('running');
    expect(a.executed[0]!.signal.aborted).toBe(false);
  });

  it('passes typed messages to the executing run and ignores text it cannot read', async () => {
    const { clock, storage, instance } = world();
    const a = instance('a');
    const key = await admit(a.engine, clock, 'r1');
    a.engine.dispatch(key);
    await settle();
    const heard: RunMessage[] = [];
    a.executed[0]!.onMessage((m) => heard.push(m));
    await a.engine.notify(key, { type: 'approval-decided', approvalId: 'ap1' });
    await storage.signals.publish(`run:job/r1`, 'approval');
    await settle();
    expect(heard).toEqual([{ type: 'approval-decided', approvalId: 'ap1' }]);
  });

  it('writes the emitted events to the run’s journal in order before its end', async () => {
    const { clock, storage, instance } = world();
    const h = instance('i1');
    h.behave(async (run) => {
      run.emit('one');
      run.emit('two');
      await Promise.resolve();
      run.emit('three');
      return 'done';
    });
    const key = await admit(h.engine, clock, 'r1');
    h.engine.dispatch(key);
    await h.engine.idle();
    expect(await eventsOf(storage, key)).toEqual(['one', 'two', 'three', 'end:Succeeded']);
  });

  it('keeps adjacent events its kind can merge as one while they wait for the same commit', async () => {
    const clock = new ManualClock();
    const storage = createMemoryStorage({ clock });
    const engine = new RunEngine({ storage, instanceId: 'i1', leaseTtlMs: 1_000, log: silent });
    storageOf.set(engine, storage);
    started.push(engine);
    engine.register<JobData, string>({
      collection: 'job',
      liveStates: LIVE,
      lane: { maxConcurrent: 1 },
      begin: () => null,
      resumes: () => true,
      execute: async (run) => {
        for (const event of ['t:a', 't:b', 'x', 't:c', 't:d']) run.emit(event);
        return 'done';
      },
      settle: async () => 'Succeeded',
      mergeEvents: (previous, next) => (String(previous).startsWith('t:') && String(next).startsWith('t:') ? `${String(previous)}${String(next).slice(2)}` : undefined),
    });
    const key = await admit(engine, clock, 'r1');
    engine.dispatch(key);
    await engine.idle();
    expect(await eventsOf(storage, key)).toEqual(['t:ab', 'x', 't:cd']);
  });

  it('takes over a live run whose lease lapsed exactly once among competing instances, resuming it', async () => {
    const { clock, instance } = world();
    const dead = instance('dead');
    const b = instance('b');
    const c = instance('c');
    await admit(dead.engine, clock, 'orphan');
    clock.advance(1_000);
    await Promise.all([b.engine.scan(), c.engine.scan()]);
    await settle();
    expect(b.executed.length + c.executed.length).toBe(1);
  });

  it('settles a run that does not resume as abandoned when its instance died', async () => {
    const { clock, storage, instance } = world();
    const dead = instance('dead');
    const b = instance('b');
    const key = await admit(dead.engine, clock, 'orphan', { status: 'Queued', resumable: false });
    clock.advance(1_000);
    await b.engine.scan();
    expect(b.endings).toEqual([{ id: 'orphan', ending: { type: 'abandoned' } }]);
    expect(await stateOf(storage, key)).toBe('Failed');
  });

  it('never takes over a run it executes itself, even when its clock jumped past the lease', async () => {
    const { clock, instance } = world();
    const h = instance('i1');
    const key = await admit(h.engine, clock, 'r1');
    h.engine.dispatch(key);
    await settle();
    clock.advance(5_000);
    await h.engine.scan();
    await h.engine.heartbeat();
    expect(h.executed).toHaveLength(1);
    expect(h.executed[0]!.signal.aborted).toBe(false);
  });

  it('fences a run here once the heartbeat finds another instance took its lease: nothing it does afterwards is written', async () => {
    const { clock, storage, instance } = world();
    const a = instance('a');
    const b = instance('b');
    const key = await admit(a.engine, clock, 'r1');
    a.engine.dispatch(key);
    await settle();
    clock.advance(1_000);
    await b.engine.scan();
    await a.engine.heartbeat();
    const run = a.executed[0]!;
    expect(stopCause(run.signal)).toBe('lease-lost');
    expect(run.fenced).toBe(true);
    expect((await run.commit({ events: ['late'] })).committed).toBe(false);
    await a.engine.idle();
    expect(a.endings).toEqual([]);
    expect(await eventsOf(storage, key)).not.toContain('late');
  });

  it('stops and fences a run whose commit the lease guard refuses', async () => {
    const { clock, storage, instance } = world();
    const a = instance('a');
    const key = await admit(a.engine, clock, 'r1');
    a.engine.dispatch(key);
    await settle();
    await storage.records.update(key, { lease: { holder: 'thief', expiresAt: clock.now() + 10_000 } });
    const run = a.executed[0]!;
    expect((await run.commit({ events: ['x'] })).committed).toBe(false);
    expect(stopCause(run.signal)).toBe('lease-lost');
    await a.engine.idle();
    expect(a.endings).toEqual([]);
  });

  it('waits out a storage outage in a commit and writes it once the storage is back', async () => {
    const { clock, storage, instance } = world();
    const h = instance('i1');
    const key = await admit(h.engine, clock, 'r1');
    h.engine.dispatch(key);
    await settle();
    const commit = storage.journal.commit.bind(storage.journal);
    let failures = 2;
    storage.journal.commit = (run, change) => (failures-- > 0 ? Promise.reject(new StorageUnavailableError()) : commit(run, change));
    const result = await h.executed[0]!.commit({ events: ['kept'] });
    expect(result.committed).toBe(true);
    expect(await eventsOf(storage, key)).toEqual(['kept']);
  });

  it('leaves a run whose execution failed for the storage being away as checkpointed, and lets go of its lease', async () => {
    const { clock, storage, instance } = world();
    const h = instance('i1');
    h.behave(async () => {
      throw new StorageUnavailableError();
    });
    const key = await admit(h.engine, clock, 'r1');
    h.engine.dispatch(key);
    await h.engine.idle();
    expect(h.endings).toEqual([]);
    expect(await stateOf(storage, key)).toBe('Running');
    await h.engine.heartbeat();
    expect((await storage.records.lapsed(['job'], LIVE, 10)).map((r) => r.id)).toEqual(['r1']);
  });

  it('begins a run from the record its admission returned even after a heartbeat renewed its lease meanwhile', async () => {
    const { clock, storage, instance } = world();
    const h = instance('i1');
    const key = { collection: 'job', ownerId: 'alice', id: 'r1' };
    const admitted = await admitLeased(h.engine, { ...key, createdAt: clock.now(), data: { status: 'Queued' } });
    if (admitted.outcome !== 'inserted') throw new Error('not admitted');
    await h.engine.heartbeat();
    h.engine.dispatch(key, admitted.record);
    await settle();
    expect(h.executed).toHaveLength(1);
    expect(await stateOf(storage, key)).toBe('Running');
  });

  it('lets go of a run it holds but no longer executes so that a scan takes it over: the next heartbeat does not renew it back', async () => {
    const { clock, storage, instance } = world();
    const h = instance('i1');
    h.behave(async () => {
      throw new StorageUnavailableError();
    });
    const key = await admit(h.engine, clock, 'r1');
    h.engine.dispatch(key);
    await h.engine.idle();
    await h.engine.heartbeat();
    await h.engine.heartbeat();
    expect((await storage.records.lapsed(['job'], LIVE, 10)).map((r) => r.id)).toEqual(['r1']);
    h.behave(async () => 'ok');
    await h.engine.scan();
    await h.engine.idle();
    expect(h.executed).toHaveLength(2);
    expect(h.endings.map((e) => e.ending.type)).toEqual(['completed']);
    expect(await stateOf(storage, key)).toBe('Succeeded');
  });

  it('writes a crash as crashed', async () => {
    const { clock, storage, instance } = world();
    const h = instance('i1');
    h.behave(async () => {
      throw new Error('a bug');
    });
    const key = await admit(h.engine, clock, 'r1');
    h.engine.dispatch(key);
    await h.engine.idle();
    expect(h.endings).toEqual([{ id: 'r1', ending: { type: 'crashed' } }]);
    expect(await stateOf(storage, key)).toBe('Failed');
  });

  it('claims a run waiting for a stream exactly once and executes it outside the lane', async () => {
    const { clock, storage, instance } = world();
    const a = instance('a');
    const b = instance('b');
    const key = { collection: 'job', ownerId: 'alice', id: 'r' };
    await storage.records.insert({ ...key, state: 'Queued', createdAt: clock.now(), lease: { holder: 'reserved', expiresAt: clock.now() + 60_000 }, data: { status: 'Queued' } });
    const claims = await Promise.all([a.engine.claimInline(key, 'reserved'), a.engine.claimInline(key, 'reserved'), b.engine.claimInline(key, 'reserved')]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    await settle();
    expect(a.executed.length + b.executed.length).toBe(1);
  });

  describe('waiting for a person (decision 3701)', () => {
    interface WaitData {
      readonly status: string;
      readonly waitsOn?: string;
      readonly verdict?: RunDecision['outcome'];
    }
    /**
     * An engine whose runs wait once for approval `ap-1` (expiring at `deadline`, by the storage's
     * clock), then end with the verdict they were woken with.
     */
    const waitingInstance = (storage: Storage, instanceId: string, decidedBeforePark?: RunDecision, options: { readonly wokenState?: string; readonly deadline?: number } = {}) => {
      const engine = new RunEngine({ storage, instanceId, leaseTtlMs: 1_000, log: silent });
      started.push(engine);
      const executedOn: string[] = [];
      const expiries: string[] = [];
      engine.register<WaitData, string, string>({
        collection: 'waiting-job',
        liveStates: ['Queued', 'Running', 'Parked'],
        lane: { maxConcurrent: 1 },
        waiting: {
          state: 'Parked',
          wokenState: options.wokenState ?? 'Queued',
          park: async (run, waits) => ({ data: { status: 'Running', waitsOn: waits.approvalId }, events: [`parked:${waits.checkpoint}`] }),
          resume: (record, decision) => (record.data.waitsOn === decision.approvalId ? { ...record.data, verdict: decision.outcome } : null),
          decided: async () => decidedBeforePark,
          expire: async (key, approvalId) => {
            if (options.deadline === undefined || storage.clock.now() < options.deadline) return 'not-due';
            expiries.push(`${instanceId}:${approvalId}`);
            await engine.decided(key, { approvalId, outcome: 'expired', by: null });
            return 'expired';
          },
        },
        begin: (record) => (record.state === 'Running' ? null : { state: 'Running', data: { ...record.data, status: 'Running' } }),
        resumes: () => true,
        execute: async (run) => {
          executedOn.push(instanceId);
          const verdict = run.record.data.verdict;
          return verdict === undefined ? new RunWaits('ap-1', 'at step 2', options.deadline ?? null) : `ran ${verdict}`;
        },
        settle: async (run, ending) => {
          const state = ending.type === 'completed' ? 'Succeeded' : 'Cancelled';
          const done = await run.commit({ events: [ending.type === 'completed' ? ending.outcome : 'cancelled'], record: { patch: { state, data: { status: state }, lease: null } } });
          return done.committed ? state : null;
        },
      });
      return { engine, executedOn, expiries };
    };

    async function parkedRun(storage: Storage, clock: ManualClock, on: ReturnType<typeof waitingInstance>): Promise<RecordKey> {
      const key = { collection: 'waiting-job', ownerId: 'alice', id: 'w1' };
      await on.engine.startRun(key, { state: 'Queued', createdAt: clock.now(), data: { status: 'Queued' } }, (first) =>
        storage.records.insert({ ...key, state: first.state, createdAt: clock.now(), lease: first.lease, data: first.data }),
      );
      await on.engine.idle();
      return key;
    }

    it('parks a run that returns RunWaits: its state stored, its lease released, its slot given back, nothing executing', async () => {
      const clock = new ManualClock();
      const storage = createMemoryStorage({ clock });
      const a = waitingInstance(storage, 'a');
      const key = await parkedRun(storage, clock, a);
      const stored = await storage.records.get<WaitData>(key);
      expect(stored).toMatchObject({ state: 'Parked', leaseHolder: null, data: { status: 'Running', waitsOn: 'ap-1' } });
      expect(await eventsOf(storage, key)).toEqual(['parked:at step 2']);
      expect(a.engine.load('waiting-job')).toEqual({ queued: 0, executing: 0 });
      expect(a.engine.isExecutingHere(key)).toBe(false);
    });

    it('resumes a parked run on the instance a decision reaches, once, and only for the approval it waits on', async () => {
      const clock = new ManualClock();
      const storage = createMemoryStorage({ clock });
      const a = waitingInstance(storage, 'a');
      const b = waitingInstance(storage, 'b');
      const key = await parkedRun(storage, clock, a);
      await b.engine.decided(key, { approvalId: 'another', outcome: 'approved', by: 'Vera' });
      expect((await storage.records.get(key))?.state).toBe('Parked');
      await Promise.all([b.engine.decided(key, { approvalId: 'ap-1', outcome: 'rejected', by: null }), a.engine.decided(key, { approvalId: 'ap-1', outcome: 'rejected', by: null })]);
      await Promise.all([a.engine.idle(), b.engine.idle()]);
      await settle();
      await Promise.all([a.engine.idle(), b.engine.idle()]);
      expect(await stateOf(storage, key)).toBe('Succeeded');
      expect(await eventsOf(storage, key)).toEqual(['parked:at step 2', 'ran rejected']);
      // Executed once to park, once to finish (on whichever instance won the resume).
      expect([...a.executedOn, ...b.executedOn]).toHaveLength(2);
    });

    it('resumes at once a run whose decision landed before its park was written', async () => {
      const clock = new ManualClock();
      const storage = createMemoryStorage({ clock });
      const a = waitingInstance(storage, 'a', { approvalId: 'ap-1', outcome: 'approved', by: 'Vera' });
      const key = await parkedRun(storage, clock, a);
      await settle();
      await a.engine.idle();
      expect(await stateOf(storage, key)).toBe('Succeeded');
      expect(await eventsOf(storage, key)).toEqual(['parked:at step 2', 'ran approved']);
    });

    it('expires the approval of a parked run at its deadline on the instance that parked it, and wakes the run with the expiry', async () => {
      const clock = new ManualClock();
      const storage = createMemoryStorage({ clock });
      const a = waitingInstance(storage, 'a', undefined, { deadline: clock.now() + 30 });
      const key = await parkedRun(storage, clock, a);
      // Its timer fires by real time; by the storage's clock the deadline has not passed yet: looked at again.
      await new Promise((resolve) => setTimeout(resolve, 60));
      expect(a.expiries).toEqual([]);
      expect(await stateOf(storage, key)).toBe('Parked');
      clock.advance(30);
      await vi.waitFor(async () => expect(await stateOf(storage, key)).toBe('Succeeded'));
      expect(a.expiries).toEqual(['a:ap-1']);
      expect(await eventsOf(storage, key)).toEqual(['parked:at step 2', 'ran expired']);
    });

    it('wakes a run into its kind\'s woken state, and neither a cancel nor a second decision treats it as parked once woken', async () => {
      const clock = new ManualClock();
      const storage = createMemoryStorage({ clock });
      // A workflow-like kind: woken runs keep the waiting state under the waking instance's lease.
      const a = waitingInstance(storage, 'a', undefined, { wokenState: 'Parked' });
      const key = await parkedRun(storage, clock, a);
      const parked = await storage.records.get(key);
      // Woken by hand as b's engine would, without executing yet: the waiting state, b's lease.
      const woken = await storage.records.update(key, { state: 'Parked', lease: { holder: 'b', expiresAt: clock.now() + 1_000 }, data: { status: 'Running', verdict: 'approved' } }, { version: parked!.version });
      expect(woken?.leaseHolder).toBe('b');
      expect(await a.engine.cancel(key)).toBe('signalled');
      await a.engine.decided(key, { approvalId: 'ap-1', outcome: 'approved', by: 'Vera' });
      const after = await storage.records.get(key);
      expect(after).toMatchObject({ state: 'Parked', leaseHolder: 'b', version: woken!.version });
    });

    it('ends a parked run at once when cancelled, and a decision after that wakes nothing', async () => {
      const clock = new ManualClock();
      const storage = createMemoryStorage({ clock });
      const a = waitingInstance(storage, 'a');
      const key = await parkedRun(storage, clock, a);
      expect(await a.engine.cancel(key)).toBe('ended');
      await a.engine.decided(key, { approvalId: 'ap-1', outcome: 'approved', by: 'Vera' });
      await settle();
      expect(await stateOf(storage, key)).toBe('Cancelled');
      expect(a.executedOn).toEqual(['a']);
    });
  });

  describe('stopping, on a storage nobody else shares', () => {
    it('stops live runs as the host stopping and has their family settle them, and ends runs that never started', async () => {
      const { clock, storage, instance } = world();
      const h = instance('i1');
      const keys = [await admit(h.engine, clock, 'a'), await admit(h.engine, clock, 'b'), await admit(h.engine, clock, 'c')];
      for (const key of keys) h.engine.dispatch(key);
      await settle();
      await h.engine.stop(1_000);
      expect(h.executed.map((run) => stopCause(run.signal))).toEqual(['host-stopping', 'host-stopping']);
      const hostStopped = { type: 'stopped', stopped: { cause: 'host-stopping' } };
      expect(h.endings.map((e) => [e.id, e.ending])).toEqual(expect.arrayContaining([['a', hostStopped], ['b', hostStopped], ['c', hostStopped]]));
      expect(await Promise.all(keys.map((key) => stateOf(storage, key)))).toEqual(['Failed', 'Failed', 'Failed']);
    });
  });

  describe('stopping, on a storage other instances share', () => {
    it('lets a run finish within the grace period and settles it as usual', async () => {
      const { clock, storage, instance } = world({ durable: true });
      const a = instance('a');
      const key = await admit(a.engine, clock, 'r1');
      a.engine.dispatch(key);
      await settle();
      const stopping = a.engine.stop(5_000);
      await settle();
      expect(a.executed[0]!.draining.aborted).toBe(true);
      expect(a.executed[0]!.signal.aborted).toBe(false);
      a.finish('r1');
      await stopping;
      expect(await stateOf(storage, key)).toBe('Succeeded');
    });

    it('stops a run still running at the end of the grace period, writes nothing more of it and lets its lease go for a takeover', async () => {
      const { clock, storage, instance } = world({ durable: true });
      const a = instance('a');
      const key = await admit(a.engine, clock, 'r1');
      a.engine.dispatch(key);
      await settle();
      await a.engine.stop(50);
      const run = a.executed[0]!;
      expect(stopCause(run.signal)).toBe('host-stopping');
      expect(run.fenced).toBe(true);
      expect((await run.commit({ events: ['after'] })).committed).toBe(false);
      expect(a.endings).toEqual([]);
      expect(await stateOf(storage, key)).toBe('Running');
      const b = instance('b');
      await b.engine.scan();
      await settle();
      expect(b.executed.map((r) => r.key.id)).toEqual(['r1']);
    });

    it('hands over a run that returns INTERRUPTED when told to drain, without settling it', async () => {
      const { clock, storage, instance } = world({ durable: true });
      const a = instance('a');
      a.behave((run) => new Promise((resolve) => run.draining.addEventListener('abort', () => resolve(INTERRUPTED), { once: true })));
      const key = await admit(a.engine, clock, 'r1');
      a.engine.dispatch(key);
      await settle();
      await a.engine.stop(5_000);
      expect(a.endings).toEqual([]);
      expect(a.executed[0]!.fenced).toBe(true);
      expect(await stateOf(storage, key)).toBe('Running');
    });

    it('stops a run driven by a stream at once, without a drain', async () => {
      const { clock, storage, instance } = world({ durable: true });
      const a = instance('a');
      const key = { collection: 'job', ownerId: 'alice', id: 'streamed' };
      await storage.records.insert({ ...key, state: 'Queued', createdAt: clock.now(), lease: { holder: 'reserved', expiresAt: clock.now() + 60_000 }, data: { status: 'Queued' } });
      expect(await a.engine.claimInline(key, 'reserved')).toBe(true);
      await settle();
      await a.engine.stop(5_000);
      expect(stopCause(a.executed[0]!.signal)).toBe('host-stopping');
      expect(a.endings).toEqual([]);
    });

    it('leaves a run that never started for another instance', async () => {
      const { clock, storage, instance } = world({ durable: true });
      const a = instance('a');
      const keys = [await admit(a.engine, clock, 'a'), await admit(a.engine, clock, 'b'), await admit(a.engine, clock, 'c')];
      for (const key of keys) a.engine.dispatch(key);
      await settle();
      await a.engine.stop(20);
      expect(await stateOf(storage, keys[2]!)).toBe('Queued');
      expect((await storage.records.lapsed(['job'], LIVE, 10)).map((r) => r.id).sort()).toEqual(['a', 'b', 'c']);
    });
  });

  it('hands every execution to the observer with the final state written', async () => {
    const { clock, instance } = world();
    const seen: string[] = [];
    const observe: RunObserver = async (key, execute) => {
      seen.push(`start ${key.id}`);
      seen.push(`end ${key.id} ${await execute()}`);
    };
    const h = instance('i1', observe);
    const key = await admit(h.engine, clock, 'r1');
    h.engine.dispatch(key);
    await settle();
    expect(seen).toEqual(['start r1']);
    h.finish('r1');
    await h.engine.idle();
    expect(seen).toEqual(['start r1', 'end r1 Succeeded']);
  });

  it('reports a run that wrote no end as interrupted to the observer', async () => {
    const { clock, storage, instance } = world();
    const seen: string[] = [];
    const h = instance('i1', async (_key, execute) => void seen.push(await execute()));
    const key = await admit(h.engine, clock, 'r1');
    h.engine.dispatch(key);
    await settle();
    await storage.records.update(key, { lease: { holder: 'thief', expiresAt: clock.now() + 10_000 } });
    await h.executed[0]!.commit({ events: ['x'] });
    await h.engine.idle();
    expect(seen).toEqual(['interrupted']);
  });
});

