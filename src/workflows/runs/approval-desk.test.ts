// The approval desk records every decision (who, when, what, comment), expires on the clock as a
// rejection, and withdraws what is left when the run stops.
import { describe, expect, it } from 'vitest';
import { ManualClock, sequentialIds } from '../../platform/clock/index.js';
import type { GraphStep } from '../engine/workflow-graph.js';
import type { ApprovalRecord } from './approval-record.js';
import { ApprovalDesk } from './approval-desk.js';

const gate = { id: 'g-id', path: 'sub/gate' } as GraphStep;

function setup() {
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const approvals: ApprovalRecord[] = [];
  const desk = new ApprovalDesk(approvals, { ids: sequentialIds('ap'), clock });
  return { clock, approvals, desk };
}

describe('ApprovalDesk', () => {
  it('records who decided, when, what and with which comment, and releases the waiting gate', async () => {
    const { clock, approvals, desk } = setup();
    const opened = desk.open(gate, 'Ship token ghp_a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ?', undefined);
    clock.advance(5_000);
    expect(desk.decide(opened.approvalId, 'Approve', 'ok', 'sub:alice')).toBe('decided');
    await expect(opened.decided).resolves.toEqual({ decision: 'Approve', comment: 'ok', timedOut: false });
    expect(approvals[0]).toEqual({
      approvalId: 'ap-1',
      stepName: 'sub/gate',
      stepId: 'g-id',
      message: 'Ship token [REDACTED]?',
      createdAt: Date.UTC(2026, 0, 1),
      deadline: null,
      state: 'Approved',
      decidedBy: 'sub:alice',
      decidedAt: Date.UTC(2026, 0, 1) + 5_000,
      decision: 'Approve',
      comment: 'ok',
    });
    expect(desk.decide(opened.approvalId, 'Reject', null, 'sub:alice')).toBe('conflict');
    expect(desk.decide('nope', 'Reject', null, 'sub:alice')).toBe('not-found');
  });

  it('expires a pending approval once the clock reaches its deadline, as a rejection', async () => {
    const { clock, approvals, desk } = setup();
    const opened = desk.open(gate, 'Go?', clock.now() + 1_000);
    clock.advance(999);
    desk.expireDue();
    expect(approvals[0]!.state).toBe('Pending');
    clock.advance(1);
    desk.expireDue();
    await expect(opened.decided).resolves.toEqual({ decision: 'Reject', comment: null, timedOut: true });
    expect(approvals[0]).toMatchObject({ state: 'TimedOut', decision: 'Reject', decidedBy: null });
    expect(desk.decide(opened.approvalId, 'Approve', null, 'sub:alice')).toBe('conflict');
  });

  it('withdraws every pending approval and says how many', () => {
    const { approvals, desk } = setup();
    const first = desk.open(gate, 'a', undefined);
    desk.open(gate, 'b', undefined);
    desk.decide(first.approvalId, 'Reject', null, 'sub:bob');
    expect(desk.withdrawPending()).toBe(1);
    expect(approvals.map((a) => a.state)).toEqual(['Rejected', 'Withdrawn']);
    expect(desk.pending()).toEqual([]);
  });
});
