// Builds the capabilities answer from the envelope the access policy resolves and pure envelope
// functions; no HTTP here.
import type { AccessPolicy } from '../platform/access/index.js';
import type { Principal } from '../platform/auth/index.js';
import { explainTools, NO_BUDGET, type HostTool } from '../platform/envelope/index.js';
import type { CapabilitiesResponse, HostFamilies } from './schemas.js';

export interface HostFacts {
  readonly hostTools: readonly HostTool[];
  readonly approvalsEnabled: boolean;
  readonly families: HostFamilies;
  /** The policy layer in force, as it stands now (a reload changes its version). */
  readonly policy: () => { readonly mode: 'Enforce' | 'Shadow'; readonly version: string } | null;
}

export function explainCapabilities(access: AccessPolicy, who: Principal, host: HostFacts): CapabilitiesResponse {
  const envelope = access.authorize(who, 'capabilities.read');
  return {
    source: envelope.source,
    matchedRoles: [...envelope.matchedRoles],
    allowedTools: [...envelope.allowedTools],
    allowedMcpServers: [...envelope.allowedMcpServers],
    autonomyCeiling: envelope.autonomyCeiling,
    autoApproveUpTo: envelope.autoApproveUpTo ?? 'None',
    budget: { ...(envelope.budget ?? NO_BUDGET) },
    tools: explainTools(envelope, host.hostTools, host.approvalsEnabled),
    families: { ...host.families },
    policy: host.policy(),
  };
}
