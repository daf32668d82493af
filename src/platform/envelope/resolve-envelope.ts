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

const NO_CLAIMS: Readonly<Record<string, string>> = Object.freeze({});

function envelope(source: EnvelopeSource, matchedRoles: readonly string[], grant: NormalizedGrant, who: EnvelopeSubject): ResolvedEnvelope {
  return Object.freeze({
    source,
    matchedRoles: Object.freeze([...matchedRoles]),
    allowedTools: Object.freeze([...grant.allowedTools]),
    allowedMcpServers: Object.freeze([...grant.allowedMcpServers]),
    autonomyCeiling: grant.autonomyCeiling,
    autoApproveUpTo: grant.autoApproveUpTo,
    budget: grant.budget,
    caller: Object.freeze({ subject: who.subjectId ?? '', roles: Object.freeze([...who.roles]), claims: who.claims ?? NO_CLAIMS }),
  });
}

/**
 * Envelopes already resolved, by config and caller object: the token cache and anonymous mode hand out
 * one frozen principal per caller, so a repeated caller skips the resolution. Weak on both keys.
 */
const resolved = new WeakMap<EnvelopesConfig, WeakMap<EnvelopeSubject, ResolvedEnvelope>>();

export function resolveEnvelope(config: EnvelopesConfig, who: EnvelopeSubject): ResolvedEnvelope {
  // Only frozen inputs are remembered (the loaded config is deep-frozen): nothing can change under an entry.
  if (!Object.isFrozen(config) || !Object.isFrozen(who) || !Object.isFrozen(who.roles)) return resolveFresh(config, who);
  let byCaller = resolved.get(config);
  if (byCaller === undefined) {
    byCaller = new WeakMap();
    resolved.set(config, byCaller);
  }
  let envelope = byCaller.get(who);
  if (envelope === undefined) {
    envelope = resolveFresh(config, who);
    byCaller.set(who, envelope);
  }
  return envelope;
}

function resolveFresh(config: EnvelopesConfig, who: EnvelopeSubject): ResolvedEnvelope {
  if (who.anonymous) return envelope('anonymous', [], normalizeGrant(config.default), who);
  const subjectGrant = who.subjectId ? ownGrant(config.bySubject, who.subjectId) : undefined;
  if (subjectGrant) return envelope('subject', [], normalizeGrant(subjectGrant), who);
  const matched = sortedUnique(who.roles).flatMap((role) => {
    const grant = ownGrant(config.byRole, role);
    return grant ? [{ role, grant: normalizeGrant(grant) }] : [];
  });
  if (matched.length > 0) {
    return envelope('roles', matched.map((m) => m.role), intersectGrants(matched.map((m) => m.grant)), who);
  }
  return envelope('default', [], normalizeGrant(config.default), who);
}
