// Verifies one JWT with the fixed policy: asymmetric algs, `exp` required and at most the configured
// lifetime away, zero skew, audience and issuer allow-lists, keys from the JWKS only (a jku/x5u/jwk/x5c
// header is refused, never followed), and no member named twice in the header or the claim set.
import { jwtVerify } from '../vendor/jose.js';
import type { JWTHeaderParameters, JWTPayload } from 'jose';
import type { Clock } from '../clock/index.js';
import { AuthFailure } from './auth-failure.js';
import { hasDuplicateKeys } from './has-duplicate-keys.js';
import type { SigningMetadata } from './identity-metadata.js';

export const ACCEPTED_ALGORITHMS: readonly string[] = Object.freeze([
  'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA',
]);

/** Header parameters through which a token could point at, or carry, its own verification key. */
export const KEY_REFERENCE_HEADERS: readonly string[] = Object.freeze(['jku', 'x5u', 'jwk', 'x5c']);

export interface TokenPolicy {
  readonly audiences: readonly string[];
  /** Accepted beside the discovered issuer. */
  readonly validIssuers: readonly string[];
  /** `exp` at most this long after `iat`, or after now when the token has no `iat` or one in the future. */
  readonly maxLifetimeMs: number;
  readonly clock: Clock;
}

export interface VerifiedToken {
  readonly claims: JWTPayload;
  readonly expiresAtMs: number;
}

/** Both audience spellings SPEC.md and DESIGN.md accept for a client id. */
export function audiencesFor(clientId: string): string[] {
  return [`api://${clientId}`, clientId];
}

export async function verifyToken(token: string, metadata: SigningMetadata, policy: TokenPolicy): Promise<VerifiedToken> {
  const resolveKey = (header: JWTHeaderParameters) => {
    const reference = KEY_REFERENCE_HEADERS.find((name) => Object.hasOwn(header, name));
    if (reference !== undefined) throw new AuthFailure(`token header carries a key reference (${reference})`, 'malformed');
    return metadata.resolveKey(header);
  };
  const { payload } = await jwtVerify(token, resolveKey, {
    algorithms: [...ACCEPTED_ALGORITHMS],
    audience: [...policy.audiences],
    issuer: [...new Set([metadata.issuer, ...policy.validIssuers])],
    requiredClaims: ['exp'],
    clockTolerance: 0,
    currentDate: new Date(policy.clock.now()),
  });
  // jose has checked `exp` is present and a number, and `iat` a number when present.
  const expiresAtMs = (payload.exp as number) * 1000;
  const now = policy.clock.now();
  const issuedAtMs = typeof payload.iat === 'number' ? Math.min(payload.iat * 1000, now) : now;
  if (expiresAtMs - issuedAtMs > policy.maxLifetimeMs) throw new AuthFailure('token lifetime is longer than Auth:MaxTokenLifetime', 'invalid_claims');
  // Both segments decoded (jose has checked they are UTF-8 JSON): what jose read is the only reading.
  const [header = '', claimSet = ''] = token.split('.');
  if (hasDuplicateKeys(Buffer.from(header, 'base64url').toString('utf8')) || hasDuplicateKeys(Buffer.from(claimSet, 'base64url').toString('utf8'))) {
    throw new AuthFailure('token header or claim set names a member twice', 'malformed');
  }
  return { claims: payload, expiresAtMs };
}
