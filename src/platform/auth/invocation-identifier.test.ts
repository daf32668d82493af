import { describe, expect, it } from 'vitest';
import { isInvocationIdentifier } from './invocation-identifier.js';
import { ANONYMOUS_PRINCIPAL, type Principal } from './principal.js';

function withClaimValue(ownerClaimValue: string): Principal {
  return { ownerId: `sub:${ownerClaimValue}`, ownerClaimValue, subjectId: ownerClaimValue, roles: [], anonymous: false };
}

describe('isInvocationIdentifier', () => {
  it('accepts a claim value of exactly 128 characters', () => {
    expect(isInvocationIdentifier(withClaimValue('a'.repeat(128)))).toBe(true);
  });

  it('refuses a claim value of 129 characters', () => {
    expect(isInvocationIdentifier(withClaimValue('a'.repeat(129)))).toBe(false);
  });

  it('judges the raw claim value, not the prefixed owner id', () => {
    const principal = withClaimValue('b'.repeat(126));
    expect(principal.ownerId.length).toBeGreaterThan(128);
    expect(isInvocationIdentifier(principal)).toBe(true);
  });

  it('accepts letters, digits, dot, underscore, colon and hyphen', () => {
    expect(isInvocationIdentifier(withClaimValue('Az09._:-'))).toBe(true);
  });

  it.each(['with space', 'slash/inside', 'at@sign', 'ünïcode', 'tab\there', 'new\nline', ''])('refuses %j', (value) => {
    expect(isInvocationIdentifier(withClaimValue(value))).toBe(false);
  });

  it('accepts the anonymous principal', () => {
    expect(isInvocationIdentifier(ANONYMOUS_PRINCIPAL)).toBe(true);
  });
});
