// Two instances on one PostgreSQL whose host clocks are 30 s apart (DESIGN §17): leases are judged by
// the database's clock, so the instance running ahead never takes over a run the other is executing
// (its side effect happens once), and the one running behind never loses its own run.
import { afterAll, describe, expect, it } from 'vitest';
import type { Clock } from '../platform/clock/index.js';
import type { Storage } from '../platform/storage/index.js';
import { createPostgresStorage } from '../platform/storage/postgres/create-postgres-storage.js';
import { freshPostgres } from '../../test/helpers/postgres.js';
import { RunEngine } from './run-engine.js';
import type { LiveRun } from './live-run.js';
import type { RunKind } from './run-kind.js';

const database = freshPostgres('skew');
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const LEASE_MS = 1_500;

afterAll(async () => database.drop());

const skewed = (offsetMs: number): Clock => ({ now: () => Date.now() + offsetMs });

interface Instance {
  readonly storage: Storage;
  readonly engine: RunEngine;
  /** Each execution's side effect, by run id. */
  readonly effects: string[];
}

async function instance(name: string, offsetMs: number, release: Promise<void>): Promise<Instance> {
  const storage = await createPostgresStorage({ clock: skewed(offsetMs), connectionString: database.connectionString, schema: database.schema, maxConnections: 4, log: silent });
  const engine = new RunEngine({ storage, instanceId: name, leaseTtlMs: LEASE_MS, scanIntervalMs: 100, log: silent });
  const effects: string[] = [];
  const kind: RunKind<{ status: string }, string> = {
    collection: 'skew-job',
    liveStates: ['Queued', 'Running'],
    lane: { maxConcurrent: 4 },
    begin: (record) => (record.state === 'Queued' ? { state: 'Running', data: { status: 'Running' } } : null),
    resumes: () => true,
    execute: async (run: LiveRun<{ status: string }>) => {
      effects.push(run.key.id);
      await release;
      return 'done';
    },
    settle: async (run) => ((await run.commit({ record: { patch: { state: 'Succeeded', data: { status: 'Succeeded' }, lease: null } } })).committed ? 'Succeeded' : null),
  };
  engine.register(kind);
  engine.start();
  return { storage, engine, effects };
}

describe('two instances whose clocks are 30 s apart', () => {
  it('run each step once: neither takes over a run the other executes, and each keeps its own', async () => {
    let finish!: () => void;
    const release = new Promise<void>((resolve) => (finish = resolve));
    const behind = await instance('behind', 0, release);
    const ahead = await instance('ahead', 30_000, release);
    try {
      const admit = async (on: Instance, id: string): Promise<void> => {
        const key = { collection: 'skew-job', ownerId: 'alice', id };
        expect((await on.storage.records.insert({ ...key, state: 'Queued', createdAt: on.storage.clock.now(), lease: on.engine.lease(key), data: { status: 'Queued' } })).outcome).toBe('inserted');
        on.engine.dispatch(key);
      };
      await admit(behind, 'on-behind');
      await admit(ahead, 'on-ahead');
      // Several lease lifetimes on either clock pass while both runs execute; heartbeats renew, scans look.
      await new Promise((resolve) => setTimeout(resolve, 3 * LEASE_MS));
      expect(behind.effects).toEqual(['on-behind']);
      expect(ahead.effects).toEqual(['on-ahead']);
      finish();
      await Promise.all([behind.engine.idle(), ahead.engine.idle()]);
      for (const id of ['on-behind', 'on-ahead']) expect((await behind.storage.records.get({ collection: 'skew-job', ownerId: 'alice', id }))?.state).toBe('Succeeded');
      expect([...behind.effects, ...ahead.effects].sort()).toEqual(['on-ahead', 'on-behind']);
    } finally {
      finish();
      await Promise.all([behind.engine.stop(100), ahead.engine.stop(100)]);
      await Promise.all([behind.storage.close(), ahead.storage.close()]);
    }
  });
});
