import { describe, expect, it } from 'vitest';
import { approvalEvent } from './approval-event.js';
import { fromStored, type ApprovalData } from './approval-record.js';
import { toApprovalResource } from './approval-resource.js';

const common = {
  approvalId: 'ap-1',
  jobId: 'job-1',
  stepId: 'call-1',
  message: 'The agent asks to call clock (now).',
  createdAt: Date.UTC(2026, 0, 1),
  deadline: null,
  state: 'Pending',
  decidedBy: null,
  decidedAt: null,
  decision: null,
  comment: null,
} as const;

describe('stored approvals', () => {
  it('reads an approval stored before DESIGN §13 (no kind) as the workflow gate it was', () => {
    const old = { ...common, workflowId: 'wf-1', stepName: 'gate' } as unknown as ApprovalData;
    const read = fromStored(old);
    expect(read).toMatchObject({ kind: 'HumanGate', runKind: 'workflow', reason: 'HumanGate', workflowId: 'wf-1', stepName: 'gate' });
    expect(toApprovalResource(read, common.createdAt)).toMatchObject({ kind: 'HumanGate', runKind: 'workflow', workflowId: 'wf-1', stepName: 'gate', reason: 'HumanGate', requestedBy: null, escalated: false });
  });

  it('answers a bundle approval stored with the old empty workflow fillers exactly as one stored without them', () => {
    const call = { kind: 'ToolCall', runKind: 'bundle', handle: 'h-1', tool: 'clock', operation: 'now', arguments: '{}', riskTier: 'Trivial', reason: 'Supervised ceiling' } as const;
    const current: ApprovalData = { ...common, ...call };
    const legacy = { ...common, workflowId: '', stepName: '', ...call } as unknown as ApprovalData;
    expect(JSON.stringify(toApprovalResource(fromStored(legacy), common.createdAt))).toBe(JSON.stringify(toApprovalResource(current, common.createdAt)));
    expect(toApprovalResource(current, common.createdAt)).not.toHaveProperty('workflowId');
    expect(approvalEvent('approval.requested', fromStored(legacy), 'sub:alice')).toEqual(approvalEvent('approval.requested', current, 'sub:alice'));
    expect(approvalEvent('approval.requested', current, 'sub:alice').data).toEqual({ approvalId: 'ap-1', jobId: 'job-1', handle: 'h-1', status: 'Pending', url: '/api/approvals/ap-1' });
  });
});
