// Brings one configured envelope grant into canonical form: tool patterns and server names lower-cased,
// deduplicated and sorted. It never widens: a tier outside the known three becomes Restricted.
import type { EnvelopeGrantConfig } from '../config/types.js';
import { autoApproveTiers, type AutoApproveTier } from './auto-approve.js';
import { autonomyTiers, type AutonomyTier } from './autonomy.js';
import { normalizeBudget, type Budget } from './budget.js';
import { sortedUnique } from './sorted-unique.js';
import { normalizeToolPatterns } from './tool-pattern-set.js';

export interface NormalizedGrant {
  readonly allowedTools: readonly string[];
  readonly allowedMcpServers: readonly string[];
  readonly autonomyCeiling: AutonomyTier;
  readonly autoApproveUpTo: AutoApproveTier;
  readonly budget: Budget;
}

export function normalizeServerNames(servers: readonly string[]): string[] {
  return sortedUnique(servers.map((s) => s.trim().toLowerCase()).filter((s) => s !== ''));
}

export function normalizeGrant(grant: EnvelopeGrantConfig): NormalizedGrant {
  return {
    allowedTools: normalizeToolPatterns(grant.allowedTools),
    allowedMcpServers: normalizeServerNames(grant.allowedMcpServers),
    autonomyCeiling: autonomyTiers.includes(grant.autonomyCeiling) ? grant.autonomyCeiling : 'Restricted',
    autoApproveUpTo: autoApproveTiers.includes(grant.autoApproveUpTo) ? grant.autoApproveUpTo : 'None',
    budget: normalizeBudget(grant.budget),
  };
}
