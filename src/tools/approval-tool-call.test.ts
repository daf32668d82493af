// What an approval shows of a tool call, the same for a workflow step and a bundle run.
import { describe, expect, it } from 'vitest';
import { approvalToolCall } from './approval-tool-call.js';
import type { ApprovalAsk } from './governed-call.js';
import type { Tool } from './tool.js';

const SECRET = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ';
const tool = { descriptor: { name: 'refund', riskTier: 'High' } } as unknown as Tool;
const ask = (parameters: Record<string, unknown>, policyVersion?: string): ApprovalAsk =>
  policyVersion === undefined ? { tool, operation: 'issue', parameters, rule: 'Supervised ceiling' } : { tool, operation: 'issue', parameters, rule: `policy refund-limit`, policyVersion };

describe('approvalToolCall', () => {
  it('shows the tool, operation, redacted arguments, risk tier and rule; the policy version only when a policy asked', () => {
    expect(approvalToolCall(ask({ amount: 12, note: `token ${SECRET}` }), 1024)).toEqual({
      tool: 'refund',
      operation: 'issue',
      arguments: expect.not.stringContaining(SECRET) as string,
      riskTier: 'High',
      reason: 'Supervised ceiling',
    });
    expect(approvalToolCall(ask({ amount: 12 }, 'v7'), 1024)).toMatchObject({ reason: 'policy refund-limit', policyVersion: 'v7', arguments: '{"amount":12}' });
  });

  it('withholds arguments larger than the surface shows', () => {
    expect(approvalToolCall(ask({ note: 'x'.repeat(100) }), 50).arguments).toBeNull();
    expect(approvalToolCall(ask({ note: 'x'.repeat(10) }), 50).arguments).toBe(`{"note":"${'x'.repeat(10)}"}`);
  });
});
