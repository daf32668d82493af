// Builds the capabilities answer from the envelope the access policy resolves and pure envelope
// functions; no HTTP here.
import type { AccessPolicy } from '../platform/access/index.js';
import type { Principal } from '../platform/auth/index.js';
import { explainTools, NO_BUDGET, type HostTool } from '../platform/envelope/index.js';
import type { CapabilitiesResponse } from './schemas.js';

export function explainCapabilities(access: AccessPolicy, who: Principal, hostTools: readonly HostTool[], approvalsEnabled = false): CapabilitiesResponse {
  const envelope = access.authorize(who, 'capabilities.read');
  return {
    source: envelope.source,
    matchedRoles: [...envelope.matchedRoles],
    allowedTools: [...envelope.allowedTools],
    allowedMcpServers: [...envelope.allowedMcpServers],
    autonomyCeiling: envelope.autonomyCeiling,
    autoApproveUpTo: envelope.autoApproveUpTo ?? 'None',
    budget: { ...(envelope.budget ?? NO_BUDGET) },
    tools: explainTools(envelope, hostTools, approvalsEnabled),
  };
}
