// A workflow run parked Blocked on a human gate and taken over by another instance (its own stopped)
// stays Blocked while the new instance re-opens its gate: nothing of the run is rewritten — no
// Running status, no re-opened gate, no second PARKED — so no poll in between can see it Running
// (DESIGN §11). Answering the gate on the new instance then finishes the same job. Two apps share one
// storage (PostgreSQL in the postgres project; otherwise a Memory storage that calls itself durable).
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

describe('a Blocked workflow run taken over by another instance', () => {
  it('stays Blocked with nothing rewritten while its gate re-opens, and finishes on the new instance once answered', async () => {
    const a = await instance('instance-a');
    const id = await submit(a.app, chain('parked', gateStep('gate', 'Go?'), toolStep('after')));
    const started = (await a.app.inject({ method: 'POST', url: `/api/workflows/${id}/runs` })).json();
    const blocked = await pollUntil(a.app, started.statusUrl, statusIs('Blocked'));
    const key = { collection: 'workflow-run', ownerId: 'anonymous:dev', id: started.jobId as string };
    const before = await storage.records.get<{ status: string; parkedSeq: number | null }>(key);
    const lastSeqBefore = await storage.journal.lastSeq(key);
    const itemsBefore = await storage.journal.items(key);
    expect(before).toMatchObject({ state: 'Blocked', leaseHolder: 'instance-a' });

    // A stops (its lease let go at once: the storage is shared); B takes the run over on its first scan.
    await a.close();
    const b = await instance('instance-b');
    await eventually(async () => ((await storage.records.get(key))?.leaseHolder === 'instance-b' ? true : undefined), 10_000);
    // Long enough for B to have re-opened the gate and parked again.
    await new Promise((resolve) => setTimeout(resolve, 300));

    const after = await storage.records.get<{ status: string; parkedSeq: number | null }>(key);
    expect(after).toMatchObject({ state: 'Blocked', data: { status: 'Blocked', parkedSeq: before!.data.parkedSeq } });
    expect(await storage.journal.lastSeq(key), 'no event written by the re-opening').toBe(lastSeqBefore);
    expect(await storage.journal.items(key)).toEqual(itemsBefore);
    const polled = (await b.app.inject({ method: 'GET', url: started.statusUrl })).json();
    expect(polled).toMatchObject({ status: 'Blocked', pendingApprovals: [{ approvalId: blocked.pendingApprovals[0].approvalId }] });
    expect(polled.steps.map((s: { status: string }) => s.status)).toEqual(['Waiting', 'Pending']);

    const decided = await b.app.inject({ method: 'POST', url: `${started.statusUrl}/approvals/${blocked.pendingApprovals[0].approvalId}`, payload: { decision: 'Approve' } });
    expect(decided.statusCode).toBe(200);
    const done = await pollUntil(b.app, started.statusUrl, statusIs('Succeeded'));
    expect(done.jobId).toBe(started.jobId);
    expect(done.steps.map((s: { status: string }) => s.status)).toEqual(['Succeeded', 'Succeeded']);
  });
});
