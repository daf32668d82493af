// Least-privilege combination of several role grants: a tool or server survives only if every grant
// allows it, the ceiling is the lowest, and each spend limit the smallest. Combining nothing is a programming error, not "grant all".
import { minAutoApprove } from './auto-approve.js';
import { minAutonomy } from './autonomy.js';
import { minBudget } from './budget.js';
import type { NormalizedGrant } from './normalize-grant.js';
import { intersectToolPatterns } from './tool-pattern-set.js';

function intersectGrant(a: NormalizedGrant, b: NormalizedGrant): NormalizedGrant {
  const servers = new Set(b.allowedMcpServers);
  return {
    allowedTools: intersectToolPatterns(a.allowedTools, b.allowedTools),
    allowedMcpServers: a.allowedMcpServers.filter((s) => servers.has(s)),
    autonomyCeiling: minAutonomy(a.autonomyCeiling, b.autonomyCeiling),
    autoApproveUpTo: minAutoApprove(a.autoApproveUpTo, b.autoApproveUpTo),
    budget: minBudget(a.budget, b.budget),
  };
}

export function intersectGrants(grants: readonly NormalizedGrant[]): NormalizedGrant {
  const [first, ...rest] = grants;
  if (!first) throw new Error('intersectGrants needs at least one grant');
  return rest.reduce(intersectGrant, first);
}
