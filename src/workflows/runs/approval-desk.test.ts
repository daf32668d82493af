// The approval desk over the storage: opens one approval per gate (or finds the one a resumed run
// already has), releases a gate decided through any instance, expires on its deadline as a rejection,
// and withdraws what is left when the run stops; writes nothing once the run is fenced. Decisions
// are compare-and-set: exactly one wins.
import { describe, expect, it } from 'vitest';
import { ManualClock, sequentialIds } from '../../platform/clock/index.js';
import { createMemoryStorage } from '../../platform/storage/index.js';
import type { GraphStep } from '../engine/workflow-graph.js';
import { ApprovalDesk, decided, expireDue, withdrawPending, type OwnedWrite } from './approval-desk.js';
import { WorkflowRunStore } from './workflow-run-store.js';

const gate = { id: 'g-id', path: 'sub/gate' } as GraphStep;
const owner = { ownerId: 'sub:alice' };
const run = { jobId: 'job-1', workflowId: 'wf-1' };

const owned: OwnedWrite = (write) => write();

function setup() {
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const runs = new WorkflowRunStore({ storage: createMemoryStorage({ clock }), recordTtlMs: 60_000 });
  const desk = (existing = [] as Awaited<ReturnType<WorkflowRunStore['approvals']>>, write: OwnedWrite = owned) =>
    new ApprovalDesk({ runs, owner, run, ids: sequentialIds('ap'), clock, existing, owned: write });
  return { clock, runs, desk };
}

describe('ApprovalDesk', () => {
  it('stores a redacted pending approval and releases the gate once it is decided elsewhere', async () => {
    const { clock, runs, desk } = setup();
    const d = desk();
    const opened = await d.open(gate, 'Ship token ghp_a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ?', undefined);
    const stored = await runs.approval(owner, opened.approvalId);
    expect(stored).toMatchObject({ approvalId: 'ap-1', jobId: 'job-1', workflowId: 'wf-1', stepName: 'sub/gate', stepId: 'g-id', message: 'Ship token [REDACTED]?', state: 'Pending', deadline: null });
    clock.advance(5_000);
    expect(await runs.settleApproval(owner, decided(stored!, 'Approve', 'ok', 'sub:alice', clock.now()))).toBe(true);
    expect(await runs.settleApproval(owner, decided(stored!, 'Reject', null, 'sub:alice', clock.now()))).toBe(false);
    await d.refresh();
    await expect(opened.decided).resolves.toEqual({ decision: 'Approve', comment: 'ok', timedOut: false });
    expect(await runs.approval(owner, opened.approvalId)).toMatchObject({ state: 'Approved', decidedBy: 'sub:alice', decidedAt: Date.UTC(2026, 0, 1) + 5_000 });
  });

  it('expires a pending approval as a rejection once its deadline passed, from any instance', async () => {
    const { clock, runs, desk } = setup();
    const d = desk();
    const opened = await d.open(gate, 'Go?', clock.now() + 1_000);
    expect(opened.deadline).toBe(clock.now() + 1_000);
    clock.advance(999);
    expect(await expireDue(runs, owner, await runs.approvals(owner, 'job-1'), clock.now())).toEqual([]);
    clock.advance(1);
    expect(await expireDue(runs, owner, await runs.approvals(owner, 'job-1'), clock.now())).toEqual([opened.approvalId]);
    await d.refresh();
    await expect(opened.decided).resolves.toEqual({ decision: 'Reject', comment: null, timedOut: true });
    expect(await runs.approval(owner, opened.approvalId)).toMatchObject({ state: 'TimedOut', decision: 'Reject', decidedBy: null });
  });

  it('gives a resumed run the gate’s existing approval, its original deadline and a decision taken while no one ran it', async () => {
    const { clock, runs, desk } = setup();
    const first = await desk().open(gate, 'Go?', clock.now() + 60_000);
    const stored = (await runs.approval(owner, first.approvalId))!;
    await runs.settleApproval(owner, decided(stored, 'Reject', 'no', 'sub:alice', clock.now()));
    clock.advance(10_000);
    const resumed = desk(await runs.approvals(owner, 'job-1'));
    const again = await resumed.open(gate, 'Go?', clock.now() + 60_000);
    expect(again.approvalId).toBe(first.approvalId);
    expect(again.deadline).toBe(Date.UTC(2026, 0, 1) + 60_000);
    await expect(again.decided).resolves.toEqual({ decision: 'Reject', comment: 'no', timedOut: false });
    expect(await runs.approvals(owner, 'job-1')).toHaveLength(1);
  });

  it('withdraws every pending approval and says how many', async () => {
    const { runs, desk } = setup();
    const d = desk();
    await d.open(gate, 'a', undefined);
    const other = await d.open({ id: 'g2', path: 'gate2' } as GraphStep, 'b', undefined);
    const second = (await runs.approval(owner, other.approvalId))!;
    await runs.settleApproval(owner, decided(second, 'Reject', null, 'sub:bob', 0));
    await d.refresh();
    expect(await withdrawPending(runs, owner, d.pending(), 0)).toBe(1);
    expect((await runs.approvals(owner, 'job-1')).map((a) => a.state)).toEqual(['Withdrawn', 'Rejected']);
  });

  it('opens no approval once the run is fenced (its writes go through the live run)', async () => {
    const { runs, desk } = setup();
    const fenced: OwnedWrite = async () => undefined;
    await desk([], fenced).open(gate, 'Go?', undefined);
    expect(await runs.approvals(owner, 'job-1')).toEqual([]);
  });
});
