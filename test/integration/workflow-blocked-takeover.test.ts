// A workflow run waiting on a human gate is parked by the run engine (Blocked, no lease): a decision
// on another instance wakes it there. One taken over Blocked (its instance died before parking it)
// stays Blocked while the new instance re-opens its gate: nothing of the run is rewritten — no
// Running status, no re-opened gate, no second PARKED — so no poll in between can see it Running
// (DESIGN §11), and it parks again. Two apps share one storage (PostgreSQL in the postgres project;
// otherwise a Memory storage that calls itself durable).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Storage } from '../../src/platform/storage/index.js';
import { buildTestApp, merge, type TestApp } from '../helpers/test-app.js';
import { openSharedTestStorage, type TestStorage } from '../helpers/test-storage.js';
import { eventually } from '../helpers/eventually.js';
import { chain, gateStep, pollUntil, statusIs, submit, toolStep, workflowSettings } from './workflows-harness.js';

let shared: TestStorage;
let storage: Storage;
const opened: TestApp[] = [];

// A short lease: the new instance scans for lapsed ones every second.
const settings = merge(workflowSettings(), { AppConfig: { Storage: { RunLeaseTtl: '00:00:03' } } });
const instance = async (instanceId: string): Promise<TestApp> => {
  const t = await buildTestApp({ settings, deps: { storage, instanceId } });
  opened.push(t);
  return t;
};

beforeAll(async () => {
  shared = await openSharedTestStorage();
  storage = shared.storage;
});
afterAll(async () => {
  for (const t of opened) await t.close();
  await shared.dispose();
});

describe('a workflow run waiting for a person (decision 3701)', () => {
  it('parks Blocked with no lease, and a decision on another instance (the first one stopped) wakes it there to finish the same job', async () => {
    const a = await instance('instance-a');
    const id = await submit(a.app, chain('parked', gateStep('gate', 'Go?'), toolStep('after')));
    const started = (await a.app.inject({ method: 'POST', url: `/api/workflows/${id}/runs` })).json();
    const blocked = await pollUntil(a.app, started.statusUrl, statusIs('Blocked'));
    const approvalId: string = blocked.pendingApprovals[0].approvalId;
    const key = { collection: 'workflow-run', ownerId: 'anonymous:dev', id: started.jobId as string };
    // Parked: executing nowhere, holding nothing, keeping the approval it waits on.
    await eventually(async () => ((await storage.records.get(key))?.leaseHolder === null ? true : undefined), 10_000);
    expect(await storage.records.get(key)).toMatchObject({ state: 'Blocked', data: { status: 'Blocked', awaiting: [approvalId] } });

    await a.close();
    const b = await instance('instance-b');
    const decided = await b.app.inject({ method: 'POST', url: `${started.statusUrl}/approvals/${approvalId}`, payload: { decision: 'Approve' } });
    expect(decided.statusCode).toBe(200);
    const done = await pollUntil(b.app, started.statusUrl, statusIs('Succeeded'));
    expect(done.jobId).toBe(started.jobId);
    expect(done.steps.map((s: { status: string }) => s.status)).toEqual(['Succeeded', 'Succeeded']);
    expect(done).not.toHaveProperty('awaiting');
  });

  it('times out a parked run\'s gate at its deadline on the instance that parked it (approvals off: the approvals sweep runs once a minute)', async () => {
    const a = await instance('instance-e');
    const id = await submit(a.app, chain('brief', gateStep('gate', 'Quick!', '00:00:01'), toolStep('after')));
    const started = (await a.app.inject({ method: 'POST', url: `/api/workflows/${id}/runs` })).json();
    await pollUntil(a.app, started.statusUrl, statusIs('Blocked'));
    const key = { collection: 'workflow-run', ownerId: 'anonymous:dev', id: started.jobId as string };
    await eventually(async () => ((await storage.records.get(key))?.leaseHolder === null ? true : undefined), 10_000);
    // Nobody polls (a poll expires what is due too): the storage is watched instead.
    await eventually(async () => ((await storage.records.get(key))?.state === 'Failed' ? true : undefined), 20_000);
    const run = (await a.app.inject({ method: 'GET', url: started.statusUrl })).json();
    expect(run.steps[0]).toMatchObject({ status: 'Failed', error: 'The approval timed out, which counts as a rejection.' });
    await a.close();
  });

  it('taken over Blocked (its instance died before parking it), stays Blocked with nothing rewritten while its gate re-opens, then parks', async () => {
    const a = await instance('instance-c');
    const id = await submit(a.app, chain('dying', gateStep('gate', 'Go?'), toolStep('after')));
    const started = (await a.app.inject({ method: 'POST', url: `/api/workflows/${id}/runs` })).json();
    const blocked = await pollUntil(a.app, started.statusUrl, statusIs('Blocked'));
    const key = { collection: 'workflow-run', ownerId: 'anonymous:dev', id: started.jobId as string };
    await eventually(async () => ((await storage.records.get(key))?.leaseHolder === null ? true : undefined), 10_000);
    await a.close();
    // As an instance that died with the run Blocked in memory (a build before 3701, or between its
    // Blocked checkpoint and its park) leaves it: Blocked, its lease lapsed, no approvals kept.
    const parked = await storage.records.get<{ status: string; parkedSeq: number | null; awaiting?: string[] }>(key);
    const { awaiting: _awaiting, ...inMemory } = parked!.data;
    await storage.records.update(key, { data: inMemory, lease: { holder: 'instance-c', expiresAt: storage.clock.now() } }, { version: parked!.version });
    const lastSeqBefore = await storage.journal.lastSeq(key);
    const itemsBefore = await storage.journal.items(key);

    const b = await instance('instance-d');
    // B takes it over on a scan, re-opens its gate (writing nothing of that) and parks it again.
    await eventually(async () => {
      const record = await storage.records.get<{ awaiting?: string[] }>(key);
      return record?.leaseHolder === null && record.data.awaiting !== undefined ? true : undefined;
    }, 10_000);
    const after = await storage.records.get<{ status: string; parkedSeq: number | null }>(key);
    expect(after).toMatchObject({ state: 'Blocked', data: { status: 'Blocked', parkedSeq: parked!.data.parkedSeq } });
    expect(await storage.journal.lastSeq(key), 'no event written by the re-opening').toBe(lastSeqBefore);
    expect(await storage.journal.items(key)).toEqual(itemsBefore);
    const polled = (await b.app.inject({ method: 'GET', url: started.statusUrl })).json();
    expect(polled).toMatchObject({ status: 'Blocked', pendingApprovals: [{ approvalId: blocked.pendingApprovals[0].approvalId }] });
    expect(polled.steps.map((s: { status: string }) => s.status)).toEqual(['Waiting', 'Pending']);

    const decided = await b.app.inject({ method: 'POST', url: `${started.statusUrl}/approvals/${blocked.pendingApprovals[0].approvalId}`, payload: { decision: 'Approve' } });
    expect(decided.statusCode).toBe(200);
    const done = await pollUntil(b.app, started.statusUrl, statusIs('Succeeded'));
    expect(done.steps.map((s: { status: string }) => s.status)).toEqual(['Succeeded', 'Succeeded']);
  });
});
