// Resolves the capability envelope for a caller: exact subject match, else the least-privilege
// combination of matching roles, else Default. Pure; it never consults the tool catalog.
import type { EnvelopeGrantConfig, EnvelopesConfig } from '../config/types.js';
import { intersectGrants } from './intersect-grants.js';
import { normalizeGrant, type NormalizedGrant } from './normalize-grant.js';
import type { EnvelopeSource, EnvelopeSubject, ResolvedEnvelope } from './resolved-envelope.js';
import { sortedUnique } from './sorted-unique.js';

// Own keys only: a subject or role called `constructor` or `__proto__` must not reach Object.prototype.
function ownGrant(map: Readonly<Record<string, EnvelopeGrantConfig>>, key: string): EnvelopeGrantConfig | undefined {
  return Object.hasOwn(map, key) ? map[key] : undefined;
}

function envelope(source: EnvelopeSource, matchedRoles: readonly string[], grant: NormalizedGrant): ResolvedEnvelope {
  return Object.freeze({
    source,
    matchedRoles: Object.freeze([...matchedRoles]),
    allowedTools: Object.freeze([...grant.allowedTools]),
    allowedMcpServers: Object.freeze([...grant.allowedMcpServers]),
    autonomyCeiling: grant.autonomyCeiling,
  });
}

export function resolveEnvelope(config: EnvelopesConfig, who: EnvelopeSubject): ResolvedEnvelope {
  if (who.anonymous) return envelope('anonymous', [], normalizeGrant(config.default));
  const subjectGrant = who.subjectId ? ownGrant(config.bySubject, who.subjectId) : undefined;
  if (subjectGrant) return envelope('subject', [], normalizeGrant(subjectGrant));
  const matched = sortedUnique(who.roles).flatMap((role) => {
    const grant = ownGrant(config.byRole, role);
    return grant ? [{ role, grant: normalizeGrant(grant) }] : [];
  });
  if (matched.length > 0) {
    return envelope('roles', matched.map((m) => m.role), intersectGrants(matched.map((m) => m.grant)));
  }
  return envelope('default', [], normalizeGrant(config.default));
}
