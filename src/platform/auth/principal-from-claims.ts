// Turns a verified claim set into a Principal: owner id by fixed precedence with its claim family,
// subject id for envelope lookup, the role union, and the string-valued claims policies read as tags
// (DESIGN.md §18; at most MAX_CLAIMS of them, each name and value bounded and storable — a run keeps
// them). Does not verify anything itself.
import { claimNames } from './claim-names.js';
import { isStorableKey } from '../storage/storable-key.js';
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
      displayName: displayNameOf(claims),
      claims: stringClaimsOf(claims),
    });
  }
  return null;
}

/** The longest display name kept, in code points (an approval's requestedBy and decidedBy repeat it). */
const MAX_DISPLAY_NAME = 128;

/** The `name` claim, else `preferred_username`: how approvals name people (DESIGN.md §13); null when neither is usable. */
function displayNameOf(claims: Readonly<Record<string, unknown>>): string | null {
  const value = usableString(claim(claims, claimNames.name)) ?? usableString(claim(claims, 'preferred_username'));
  if (value === null) return null;
  const kept = value.length > MAX_DISPLAY_NAME ? Array.from(value).slice(0, MAX_DISPLAY_NAME).join('') : value;
  // Text the storage cannot keep (a NUL, an unpaired surrogate) names no one.
  return isStorableKey(kept) ? kept : null;
}

/** How many string claims a principal keeps, and how long a claim's name and value may be (longer ones are left out). */
const MAX_CLAIMS = 64;
const MAX_CLAIM_NAME = 128;
const MAX_CLAIM_VALUE = 512;

/** The token's string-valued claims, as policies read them: the first MAX_CLAIMS that fit the bounds. */
function stringClaimsOf(claims: Readonly<Record<string, unknown>>): Readonly<Record<string, string>> {
  const kept: Record<string, string> = {};
  let count = 0;
  for (const [name, value] of Object.entries(claims)) {
    if (count === MAX_CLAIMS) break;
    if (typeof value !== 'string' || name.length > MAX_CLAIM_NAME || value.length > MAX_CLAIM_VALUE) continue;
    if (!isStorableKey(name) || !isStorableKey(value)) continue;
    kept[name] = value;
    count += 1;
  }
  return Object.freeze(kept);
}
