// Polling a finished workflow run reads the storage once per instance (issue 28): a final run never
// changes, so its view is kept until its record expires. A live run is read every time.
import { describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../platform/clock/index.js';
import { createMemoryStorage } from '../../platform/storage/index.js';
import type { ApprovalStore } from '../../approvals/index.js';
import { WorkflowRunStore, workflowRunKey } from './workflow-run-store.js';
import type { WorkflowRunData } from './workflow-run.js';

const owner = { ownerId: 'alice' };

function run(status: WorkflowRunData['status']): WorkflowRunData {
  return {
    jobId: 'job', workflowId: 'wf', ownerId: owner.ownerId, envelope: { source: 'default', allowedTools: [], allowedMcpServers: [], autonomyCeiling: 'Autonomous' } as unknown as WorkflowRunData['envelope'],
    input: {}, steps: [], createdAt: 0, status, startedAt: 0, completedAt: null, error: null, cancelRequested: false, usage: { inputTokens: 0, outputTokens: 0 }, parkedSeq: null, withdrawnApprovals: null,
  };
}

describe('WorkflowRunStore.view', () => {
  it('reads a final run once and answers later polls from memory until its record expires; a live run is read every time', async () => {
    const clock = new ManualClock();
    const storage = createMemoryStorage({ clock });
    const store = new WorkflowRunStore({ storage, recordTtlMs: 60_000, approvals: {} as ApprovalStore });
    const get = vi.spyOn(storage.records, 'get');
    const items = vi.spyOn(storage.journal, 'items');
    const key = workflowRunKey(owner, 'job');
    await storage.records.insert({ ...key, state: 'Running', createdAt: 0, data: run('Running') });
    await storage.journal.commit(key, { items: [{ key: 'a', data: { status: 'Running' } }] });
    await store.view(owner, 'job');
    await store.view(owner, 'job');
    expect(get).toHaveBeenCalledTimes(2);

    await storage.journal.commit(key, { items: [{ key: 'a', data: { status: 'Succeeded' } }], record: { patch: { state: 'Succeeded', data: run('Succeeded'), expiresAt: clock.now() + 60_000 } } });
    const first = await store.view(owner, 'job');
    expect(first?.steps.get('a')).toEqual({ status: 'Succeeded' });
    get.mockClear();
    items.mockClear();
    for (let i = 0; i < 5; i += 1) expect(await store.view(owner, 'job')).toBe(first);
    expect(get).not.toHaveBeenCalled();
    expect(items).not.toHaveBeenCalled();
    expect(await store.view({ ownerId: 'mallory' }, 'job')).toBeUndefined();

    clock.advance(60_000);
    expect(await store.view(owner, 'job')).toBeUndefined();
  });
});

describe('WorkflowRunStore plans (decision 2810)', () => {
  const plan = { workflow: { id: 'wf', name: 'wf', steps: [], edges: [] }, subPlans: [] } as unknown as Parameters<WorkflowRunStore['admit']>[1];

  it('keeps a run’s plan as one of its items, written by its admission, and never shows it as a step', async () => {
    const clock = new ManualClock();
    const storage = createMemoryStorage({ clock });
    const admittedHere = new WorkflowRunStore({ storage, recordTtlMs: 60_000, approvals: {} as ApprovalStore });
    const elsewhere = new WorkflowRunStore({ storage, recordTtlMs: 60_000, approvals: {} as ApprovalStore });
    const admitted = await admittedHere.admit(run('Queued'), plan, 10, { holder: 'i1', expiresAt: 10_000 });
    expect(admitted.outcome).toBe('inserted');
    // The admitting instance has it in memory (once); any other instance reads the run's plan item.
    expect(await admittedHere.plan(owner, 'job')).toEqual({ plan, record: false });
    expect(await elsewhere.plan(owner, 'job')).toEqual({ plan, record: false });
    expect(await storage.records.get({ collection: 'workflow-run-plan', ownerId: 'alice', id: 'job' })).toBeUndefined();
    expect([...(await elsewhere.steps(workflowRunKey(owner, 'job'))).keys()]).toEqual([]);
  });

  it('reads the plan record of a run an earlier build admitted, and says so (its final commit expires it)', async () => {
    const clock = new ManualClock();
    const storage = createMemoryStorage({ clock });
    const store = new WorkflowRunStore({ storage, recordTtlMs: 60_000, approvals: {} as ApprovalStore });
    // As the build before decision 2810 admitted a run: its plan a record of its own.
    await storage.records.insert({ ...workflowRunKey(owner, 'job'), scope: 'wf', state: 'Queued', createdAt: 0, data: run('Queued') }, undefined, [
      { collection: 'workflow-run-plan', ownerId: 'alice', id: 'job', createdAt: 0, data: plan },
    ]);
    expect(await store.plan(owner, 'job')).toEqual({ plan, record: true });
    expect(store.endsWith(run('Succeeded'), 5_000)).toEqual({ keys: [{ collection: 'workflow-run-plan', ownerId: 'alice', id: 'job' }], at: 65_000 });
    expect(await store.plan(owner, 'other')).toBeUndefined();
  });
});
