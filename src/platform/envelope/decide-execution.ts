// May this tool actually run now? decideTool AND an Autonomous ceiling: approvals do not exist yet, so
// Supervised and Restricted refuse every call (fail-closed). There is deliberately no override argument.
import { decideTool, grantOf } from './decide-tool.js';
import { envelopeReference } from './envelope-label.js';
import type { EffectiveEnvelope } from './narrow-envelope.js';
import type { ResolvedEnvelope } from './resolved-envelope.js';
import { deny, type ToolDecision } from './tool-decision.js';

export function decideExecution(envelope: ResolvedEnvelope | EffectiveEnvelope, toolName: string): ToolDecision {
  const decision = decideTool(envelope, toolName);
  if (!decision.allowed) return decision;
  const grant = grantOf(envelope);
  if (grant.autonomyCeiling === 'Autonomous') return decision;
  return deny(
    'autonomy-below-autonomous',
    `denied: autonomy ceiling ${grant.autonomyCeiling} of ${envelopeReference(grant)} is below Autonomous`,
  );
}
