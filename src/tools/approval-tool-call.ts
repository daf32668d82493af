// What an approval shows of a tool call a person must decide (DESIGN.md §13), the same on every
// surface that can wait (a workflow step, a bundle run): the tool, the operation, the arguments as
// redacted JSON text (withheld as null when larger than the surface shows), the risk tier, the rule
// that asked, and the policy version when a policy asked.
import type { ApprovalRule } from '../platform/envelope/index.js';
import { redactText } from '../platform/redaction/index.js';
import type { ApprovalAsk } from './governed-call.js';
import type { RiskTier } from './tool.js';

export interface ApprovalToolCall {
  readonly tool: string;
  readonly operation: string;
  readonly arguments: string | null;
  readonly riskTier: RiskTier;
  readonly reason: ApprovalRule;
  readonly policyVersion?: string;
}

export function approvalToolCall(ask: ApprovalAsk, maxArgumentBytes: number): ApprovalToolCall {
  const text = redactText(JSON.stringify(ask.parameters));
  const shown = {
    tool: ask.tool.descriptor.name,
    operation: ask.operation,
    arguments: Buffer.byteLength(text, 'utf8') > maxArgumentBytes ? null : text,
    riskTier: ask.tool.descriptor.riskTier,
    reason: ask.rule,
  };
  return ask.policyVersion === undefined ? shown : { ...shown, policyVersion: ask.policyVersion };
}
