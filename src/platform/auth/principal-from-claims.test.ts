import { describe, expect, it } from 'vitest';
import { claimNames } from './claim-names.js';
import { principalFromClaims } from './principal-from-claims.js';

const OID = claimNames.objectIdentifier;
const NAMEID = claimNames.nameIdentifier;
const ROLE = claimNames.role;

describe('principalFromClaims owner precedence', () => {
  it.each([
    ['oid beats everything', { oid: 'o1', [OID]: 'o2', [NAMEID]: 'n1', sub: 's1', name: 'nm' }, 'oid:o1', 'o1'],
    ['objectidentifier comes second, in the oid family', { [OID]: 'o2', [NAMEID]: 'n1', sub: 's1', name: 'nm' }, 'oid:o2', 'o2'],
    ['nameidentifier comes third, in the sub family', { [NAMEID]: 'n1', sub: 's1', name: 'nm' }, 'sub:n1', 'n1'],
    ['sub comes fourth', { sub: 's1', name: 'nm' }, 'sub:s1', 's1'],
    ['name comes last, in its own family', { name: 'nm' }, 'name:nm', 'nm'],
    ['an empty oid is skipped', { oid: '', sub: 's1' }, 'sub:s1', 's1'],
    ['a whitespace-only oid is skipped', { oid: '  ', sub: 's1' }, 'sub:s1', 's1'],
    ['a non-string oid is skipped', { oid: 42, sub: 's1' }, 'sub:s1', 's1'],
    ['an array sub is skipped', { sub: ['s1'], name: 'nm' }, 'name:nm', 'nm'],
  ])('%s', (_title, claims, ownerId, ownerClaimValue) => {
    expect(principalFromClaims(claims)).toMatchObject({ ownerId, ownerClaimValue, anonymous: false });
  });

  it('keeps a name equal to someone else’s oid in a different owner family', () => {
    expect(principalFromClaims({ name: 'o1' })?.ownerId).not.toBe(principalFromClaims({ oid: 'o1' })?.ownerId);
  });

  it('returns null when no identity claim is usable', () => {
    expect(principalFromClaims({ roles: ['Admin'], email: 'a@example.com', oid: '' })).toBeNull();
  });

  it('does not read identity claims inherited from the prototype', () => {
    const claims = Object.create({ sub: 'inherited' }) as Record<string, unknown>;
    expect(principalFromClaims(claims)).toBeNull();
  });
});

describe('principalFromClaims subject id', () => {
  it('prefers the nameidentifier claim over sub', () => {
    expect(principalFromClaims({ oid: 'o', [NAMEID]: 'n', sub: 's' })?.subjectId).toBe('n');
  });

  it('falls back to sub', () => {
    expect(principalFromClaims({ oid: 'o', sub: 's' })?.subjectId).toBe('s');
  });

  it('is null when only oid or name identify the caller', () => {
    expect(principalFromClaims({ oid: 'o', [OID]: 'o2', name: 'nm' })?.subjectId).toBeNull();
  });
});

describe('principalFromClaims roles', () => {
  it('unions the long role claim, roles and role, deduplicated in order', () => {
    const principal = principalFromClaims({ sub: 's', [ROLE]: ['A', 'B'], roles: 'B', role: ['C', 'A'] });
    expect(principal?.roles).toEqual(['A', 'B', 'C']);
  });

  it('treats a string role as one role and never splits it', () => {
    expect(principalFromClaims({ sub: 's', roles: 'Harness.Tools.Invoke Harness.Evals.Execute,Other' })?.roles).toEqual([
      'Harness.Tools.Invoke Harness.Evals.Execute,Other',
    ]);
  });

  it('keeps roles exact and case-sensitive', () => {
    expect(principalFromClaims({ sub: 's', roles: ['admin', 'Admin'] })?.roles).toEqual(['admin', 'Admin']);
  });

  it('ignores non-string and empty role values', () => {
    expect(principalFromClaims({ sub: 's', roles: ['A', 1, null, '', { x: 1 }], role: true })?.roles).toEqual(['A']);
  });

  it('has no roles when no role claim is present', () => {
    expect(principalFromClaims({ sub: 's' })?.roles).toEqual([]);
  });
});

describe('principalFromClaims string claims (what policies read as tags, DESIGN.md §18)', () => {
  it('keeps string-valued claims only, leaving out arrays, numbers, objects and booleans', () => {
    const principal = principalFromClaims({ sub: 's', department: 'support', roles: ['a'], exp: 123, nested: { x: 'y' }, verified: true });
    expect(principal?.claims).toEqual({ sub: 's', department: 'support' });
  });

  it('leaves out claims a run could not keep or that are too long, and keeps at most 64', () => {
    const many = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`c${i}`, 'v']));
    const principal = principalFromClaims({ sub: 's', nul: 'a\u0000b', long: 'x'.repeat(513), [`n${'x'.repeat(200)}`]: 'v', ...many });
    expect(principal?.claims).not.toHaveProperty('nul');
    expect(principal?.claims).not.toHaveProperty('long');
    expect(Object.keys(principal?.claims ?? {})).toHaveLength(64);
    expect(Object.isFrozen(principal?.claims)).toBe(true);
  });
});
