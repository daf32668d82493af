// The approval desk over the approval contract: opens one approval per gate (or finds the one a
// resumed run already has), releases a gate decided through any instance, expires on its deadline as a
// rejection, and withdraws what is left when the run stops; writes nothing once the run is fenced.
// Decisions are compare-and-set: exactly one wins.
import { describe, expect, it } from 'vitest';
import { Approvals, ApprovalStore, decided, isWorkflowApproval, type WorkflowApproval } from '../../approvals/index.js';
import { NO_AUDIT } from '../../platform/audit/index.js';
import { ManualClock, sequentialIds } from '../../platform/clock/index.js';
import { createMemoryStorage } from '../../platform/storage/index.js';
import type { GraphStep } from '../engine/workflow-graph.js';
import { ApprovalDesk, withdrawPending, type OwnedWrite } from './approval-desk.js';

const gate = { id: 'g-id', path: 'sub/gate' } as GraphStep;
const owner = { ownerId: 'sub:alice' };
const run = { jobId: 'job-1', workflowId: 'wf-1' };
const alice = { ownerId: 'sub:alice', name: null };

const owned: OwnedWrite = (write) => write();

function setup(enabled = false) {
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const store = new ApprovalStore({ storage: createMemoryStorage({ clock }) });
  const approvals = new Approvals({
    config: { enabled, approverRoles: ['Approver'], allowSelfApproval: true, defaultTimeoutMs: 3_600_000, escalateAfterMs: null, escalationRoles: [] },
    store,
    clock,
    audit: NO_AUDIT,
    log: { warn: () => undefined },
  });
  const desk = (existing = [] as WorkflowApproval[], write: OwnedWrite = owned) => new ApprovalDesk({ approvals, owner, run, ids: sequentialIds('ap'), clock, existing, owned: write });
  return { clock, store, approvals, desk };
}

describe('ApprovalDesk', () => {
  it('stores a redacted pending approval and releases the gate once it is decided elsewhere', async () => {
    const { clock, store, desk } = setup();
    const d = desk();
    const opened = await d.open(gate, { message: 'Ship token ghp_a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ?', timeoutMs: undefined });
    const stored = await store.get(owner, opened.approvalId);
    expect(stored).toMatchObject({ approvalId: 'ap-1', jobId: 'job-1', workflowId: 'wf-1', stepName: 'sub/gate', stepId: 'g-id', message: 'Ship token [REDACTED]?', state: 'Pending', deadline: null, kind: 'HumanGate', routedTo: [] });
    clock.advance(5_000);
    expect(await store.settle(owner.ownerId, decided(stored!, 'Approve', 'ok', alice, clock.now()))).toBe(true);
    expect(await store.settle(owner.ownerId, decided(stored!, 'Reject', null, alice, clock.now()))).toBe(false);
    await d.refresh();
    await expect(opened.decided).resolves.toEqual({ decision: 'Approve', comment: 'ok', timedOut: false, decidedBy: 'sub:alice' });
    expect(await store.get(owner, opened.approvalId)).toMatchObject({ state: 'Approved', decidedBy: 'sub:alice', decidedAt: Date.UTC(2026, 0, 1) + 5_000 });
  });

  it('routes to the approver roles and takes DefaultTimeout only with approvals on', async () => {
    const { clock, store, desk } = setup(true);
    const d = desk();
    const opened = await d.open(gate, { message: 'Go?', timeoutMs: undefined });
    expect(opened.deadline).toBe(clock.now() + 3_600_000);
    expect(await store.get(owner, opened.approvalId)).toMatchObject({ routedTo: ['Approver'], escalated: false });
    const own = await d.open({ id: 'g2', path: 'g2' } as GraphStep, { message: 'Go?', timeoutMs: 1_000, approverRoles: ['Finance'] });
    expect(own.deadline).toBe(clock.now() + 1_000);
    expect(await store.get(owner, own.approvalId)).toMatchObject({ routedTo: ['Finance'] });
  });

  it('expires a pending approval as a rejection once its deadline passed, from any instance', async () => {
    const { clock, store, approvals, desk } = setup();
    const d = desk();
    const opened = await d.open(gate, { message: 'Go?', timeoutMs: 1_000 });
    expect(opened.deadline).toBe(clock.now() + 1_000);
    clock.advance(999);
    expect(await approvals.expireDue(await store.forRun(owner, 'job-1'), owner.ownerId)).toEqual([]);
    clock.advance(1);
    expect((await approvals.expireDue(await store.forRun(owner, 'job-1'), owner.ownerId)).map((a) => a.approvalId)).toEqual([opened.approvalId]);
    await d.refresh();
    await expect(opened.decided).resolves.toEqual({ decision: 'Reject', comment: null, timedOut: true });
    expect(await store.get(owner, opened.approvalId)).toMatchObject({ state: 'TimedOut', decision: 'Reject', decidedBy: null });
  });

  it('gives a resumed run the gate’s existing approval, its original deadline and a decision taken while no one ran it', async () => {
    const { clock, store, desk } = setup();
    const first = await desk().open(gate, { message: 'Go?', timeoutMs: 60_000 });
    const stored = (await store.get(owner, first.approvalId))!;
    await store.settle(owner.ownerId, decided(stored, 'Reject', 'no', alice, clock.now()));
    clock.advance(10_000);
    const resumed = desk((await store.forRun(owner, 'job-1')).filter(isWorkflowApproval));
    const again = await resumed.open(gate, { message: 'Go?', timeoutMs: 60_000 });
    expect(again.approvalId).toBe(first.approvalId);
    expect(again.deadline).toBe(Date.UTC(2026, 0, 1) + 60_000);
    await expect(again.decided).resolves.toEqual({ decision: 'Reject', comment: 'no', timedOut: false, decidedBy: 'sub:alice' });
    expect(await store.forRun(owner, 'job-1')).toHaveLength(1);
  });

  it('withdraws every pending approval and says how many', async () => {
    const { store, approvals, desk } = setup();
    const d = desk();
    await d.open(gate, { message: 'a', timeoutMs: undefined });
    const other = await d.open({ id: 'g2', path: 'gate2' } as GraphStep, { message: 'b', timeoutMs: undefined });
    const second = (await store.get(owner, other.approvalId))!;
    await store.settle(owner.ownerId, decided(second, 'Reject', null, { ownerId: 'sub:bob', name: 'Bob' }, 0));
    await d.refresh();
    expect(await withdrawPending(approvals, owner, d.pending())).toBe(1);
    expect((await store.forRun(owner, 'job-1')).map((a) => a.state)).toEqual(['Withdrawn', 'Rejected']);
  });

  it('opens no approval once the run is fenced (its writes go through the live run)', async () => {
    const { store, desk } = setup();
    const fenced: OwnedWrite = async () => undefined;
    await desk([], fenced).open(gate, { message: 'Go?', timeoutMs: undefined });
    expect(await store.forRun(owner, 'job-1')).toEqual([]);
  });
});
