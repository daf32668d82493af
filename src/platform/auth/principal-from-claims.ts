// Turns a verified claim set into a Principal: owner id by fixed precedence with its claim family,
// subject id for envelope lookup, and the role union. Does not verify anything itself.
import { claimNames } from './claim-names.js';
import type { Principal } from './principal.js';

type OwnerFamily = 'oid' | 'sub' | 'name';

/** Owner precedence, first usable wins; the family keeps a `name` from ever matching someone's `oid`. */
const ownerSources: ReadonlyArray<readonly [claim: string, family: OwnerFamily]> = [
  [claimNames.oid, 'oid'],
  [claimNames.objectIdentifier, 'oid'],
  [claimNames.nameIdentifier, 'sub'],
  [claimNames.sub, 'sub'],
  [claimNames.name, 'name'],
];

const roleSources = [claimNames.role, claimNames.roles, claimNames.shortRole];

/** A claim is usable when it is a string with at least one non-whitespace character. */
function usableString(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

function claim(claims: Readonly<Record<string, unknown>>, name: string): unknown {
  return Object.hasOwn(claims, name) ? claims[name] : undefined;
}

function readRoles(claims: Readonly<Record<string, unknown>>): string[] {
  const roles = new Set<string>();
  for (const name of roleSources) {
    const value = claim(claims, name);
    // A string is one role, never split on spaces or commas; non-string array members are ignored.
    const values: unknown[] = Array.isArray(value) ? value : [value];
    for (const role of values) {
      if (typeof role === 'string' && role !== '') roles.add(role);
    }
  }
  return [...roles];
}

/** The principal a claim set describes, or null when it carries no usable identity. */
export function principalFromClaims(claims: Readonly<Record<string, unknown>>): Principal | null {
  for (const [name, family] of ownerSources) {
    const value = usableString(claim(claims, name));
    if (value === null) continue;
    const subjectId =
      usableString(claim(claims, claimNames.nameIdentifier)) ?? usableString(claim(claims, claimNames.sub));
    return Object.freeze({
      ownerId: `${family}:${value}`,
      ownerClaimValue: value,
      subjectId,
      roles: Object.freeze(readRoles(claims)),
      anonymous: false,
    });
  }
  return null;
}
