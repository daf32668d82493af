// SPEC.md's extra identity rule for direct tool invocation: the owner claim value must be a short,
// plain identifier. Judged on the raw claim value, not on the family-prefixed owner id.
import type { Principal } from './principal.js';

export const MAX_INVOCATION_IDENTIFIER_LENGTH = 128;
const invocationIdentifierPattern = /^[A-Za-z0-9._:-]+$/;

export function isInvocationIdentifier(principal: Principal): boolean {
  const value = principal.ownerClaimValue;
  return value.length <= MAX_INVOCATION_IDENTIFIER_LENGTH && invocationIdentifierPattern.test(value);
}
