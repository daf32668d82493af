// May this tool actually run now, and must a person approve it first? decideTool, then the autonomy
// ceiling (DESIGN.md §13): Autonomous runs; Supervised asks a person when approvals are on (unless the
// tool's risk tier is at or below the envelope's AutoApproveUpTo) and is refused like Restricted when
// they are off (SPEC.md's rule); Restricted refuses. A bundle's `require-approval` only tightens: with
// approvals on, the calls it names ask even under Autonomous or an auto-approving threshold. There is
// deliberately no override argument.
import { autoApproves } from './auto-approve.js';
import { decideTool, grantOf } from './decide-tool.js';
import { envelopeReference } from './envelope-label.js';
import type { EffectiveEnvelope } from './narrow-envelope.js';
import type { ResolvedEnvelope } from './resolved-envelope.js';
import { matchToolPattern } from './tool-pattern-set.js';
import { deny, type ToolDecision } from './tool-decision.js';

/** The rule that asked a person (the approval's `reason`): the ceiling, the bundle, or a policy (`policy <id>`, DESIGN.md §18). */
export type ApprovalRule = 'Supervised ceiling' | 'bundle require-approval' | `policy ${string}`;

export interface Supervision {
  /** AppConfig:AI:Approvals:Enabled. */
  readonly approvalsEnabled: boolean;
  /** The tool's risk tier (its metadata); unknown asks. */
  readonly riskTier: string;
  /** AGENT.md `require-approval:`: `all`, lower-cased tool names, or null for none. */
  readonly requireApproval?: readonly string[] | 'all' | null;
}

export type ExecutionDecision = ToolDecision & { readonly approval?: ApprovalRule };

export function decideExecution(envelope: ResolvedEnvelope | EffectiveEnvelope, toolName: string, supervision?: Supervision): ExecutionDecision {
  const decision = decideTool(envelope, toolName);
  if (!decision.allowed) return decision;
  const grant = grantOf(envelope);
  const enabled = supervision?.approvalsEnabled === true;
  const required = enabled && requiresApproval(supervision.requireApproval ?? null, toolName);
  if (grant.autonomyCeiling === 'Autonomous') return required ? asks(decision, 'bundle require-approval') : decision;
  if (grant.autonomyCeiling === 'Supervised' && enabled) {
    if (required) return asks(decision, 'bundle require-approval');
    if (autoApproves(grant.autoApproveUpTo, supervision.riskTier)) return Object.freeze({ allowed: true, rule: `${decision.rule}; auto-approved up to ${grant.autoApproveUpTo ?? 'None'}` });
    return asks(decision, 'Supervised ceiling');
  }
  return deny(
    'autonomy-below-autonomous',
    `denied: autonomy ceiling ${grant.autonomyCeiling} of ${envelopeReference(grant)} is below Autonomous`,
  );
}

function asks(decision: ToolDecision, rule: ApprovalRule): ExecutionDecision {
  return Object.freeze({ allowed: true, rule: `${decision.rule}; a person approves each call (${rule})`, approval: rule });
}

function requiresApproval(list: readonly string[] | 'all' | null, toolName: string): boolean {
  if (list === null) return false;
  if (list === 'all') return true;
  return matchToolPattern(list, toolName) !== null;
}
