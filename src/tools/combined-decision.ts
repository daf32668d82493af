// How the envelope, the policy layer and the ceiling combine for one call, strictest first (DESIGN.md
// §18): a tool the envelope does not grant; a policy deny; the ceiling's refusal; the data
// classification; then whether a person decides (the policy's ask, else the ceiling's or the bundle's)
// and whether the surface can wait for one. A Shadow policy is recorded only. Pure: the governed call
// acts on it, the explain route reports it.
import type { ApprovalRule, ExecutionDecision } from '../platform/envelope/index.js';
import { containsSecret } from '../platform/redaction/index.js';
import type { GovernorDenial } from './governed-call.js';
import type { PolicyJudgement } from './policy-gate.js';
import type { ToolDescriptor } from './tool.js';

export type CombinedDecision =
  | { readonly verdict: 'denied'; readonly denial: GovernorDenial; readonly reason: string }
  /** A person decides: `approval` is the approval's reason; `rule` the line's. */
  | { readonly verdict: 'ask'; readonly approval: ApprovalRule; readonly rule: string; readonly policyVersion?: string }
  | { readonly verdict: 'allowed'; readonly rule: string };

export interface CombinedDecisionInput {
  readonly decision: ExecutionDecision;
  readonly policy: PolicyJudgement | null;
  readonly tool: ToolDescriptor;
  readonly parameters: unknown;
  readonly surface: string;
  /** A supervisor is there to ask and approvals are on. */
  readonly canWait: boolean;
}

export function combinedDecision(input: CombinedDecisionInput): CombinedDecision {
  const { decision, tool } = input;
  const enforced = input.policy !== null && input.policy.mode === 'Enforce' ? input.policy : null;
  if (!decision.allowed && decision.reason !== 'autonomy-below-autonomous') return { verdict: 'denied', denial: 'not-granted', reason: decision.rule };
  if (enforced?.decision === 'deny') return { verdict: 'denied', denial: 'policy', reason: policyDenialReason(enforced) };
  if (!decision.allowed) return { verdict: 'denied', denial: 'autonomy', reason: decision.rule };
  if ((!tool.isReadOnly || tool.reachesNetwork) && containsSecret(input.parameters)) {
    return { verdict: 'denied', denial: 'data-classification', reason: 'denied: the parameters carry a detected secret and the tool writes or reaches the network' };
  }
  const policyAsks = enforced?.decision === 'ask' ? policyRule(enforced) : undefined;
  const approval = policyAsks ?? decision.approval;
  if (approval === undefined) return { verdict: 'allowed', rule: decision.rule };
  if (!input.canWait) return { verdict: 'denied', denial: 'approval', reason: `denied: a person approves each call of this tool (${approval}), and a ${input.surface} call cannot wait for one` };
  if (policyAsks === undefined || enforced === null) return { verdict: 'ask', approval, rule: decision.rule };
  return { verdict: 'ask', approval, rule: `${decision.rule}; a person approves each call (${policyAsks})`, policyVersion: enforced.version };
}

/** The approval rule of a policy's ask: `policy <id>`, naming the first policy that asked (DESIGN.md §18). */
function policyRule(policy: PolicyJudgement): ApprovalRule {
  return `policy ${policy.determining[0] ?? 'unnamed'}`;
}

/** The audit reason of a policy's denial: the forbids that matched, the policies that failed, or why none permits it. */
function policyDenialReason(policy: PolicyJudgement): string {
  if (policy.errors.length > 0) return `denied by policy: ${policy.errors.join(', ')} failed to evaluate`;
  if (policy.determining.length > 0) return `denied by policy: ${policy.determining.join(', ')}`;
  return `denied by policy: ${policy.reason ?? 'no policy permits this call'}`;
}
