// JWT bearer mode: header → token cache → verification → Principal. Every refusal is the same 401;
// the reason goes to the log with a token fingerprint, never the token. When the identity provider
// cannot be reached no token can be checked: that is a 503 (said once per state change in the log),
// not a 401 that would blame the caller's token.
import { errors } from '../vendor/jose.js';
import type { AuthConfig } from '../config/types.js';
import { AuthFailure, IdentityProviderUnreachable, identityProviderUnavailableProblem, unauthorizedProblem, type AuthFailureCategory } from './auth-failure.js';
import type { Authenticator, AuthenticatorDeps } from './authenticator.js';
import { bearerTokenOf, MAX_AUTHORIZATION_LENGTH, parseBearerToken } from './bearer-token.js';
import { authorityFor, IdentityMetadata } from './identity-metadata.js';
import { IdentityProviderHealth } from './identity-provider-health.js';
import type { Principal } from './principal.js';
import { principalFromClaims } from './principal-from-claims.js';
import { RefusalLog } from './refusal-log.js';
import { TokenCache } from './token-cache.js';
import { tokenDigest } from './token-digest.js';
import { audiencesFor, verifyToken, type TokenPolicy } from './token-verifier.js';
import { isStorableKey } from '../storage/storable-key.js';

export type JwtAuthConfig = AuthConfig & { readonly tenantId: string; readonly clientId: string };

export function createJwtAuthenticator(config: JwtAuthConfig, deps: AuthenticatorDeps): Authenticator {
  const { clock, log } = deps;
  const metadata = new IdentityMetadata({
    authority: authorityFor(config.instance, config.tenantId),
    requireHttps: config.requireHttpsMetadata,
    refreshCooldownMs: config.jwksRefreshCooldownMs,
    clock,
    fetch: deps.fetch ?? globalThis.fetch,
  });
  const cache = new TokenCache({ clock, ...(deps.tokenCacheSize === undefined ? {} : { maxEntries: deps.tokenCacheSize }) });
  const policy: TokenPolicy = { audiences: audiencesFor(config.clientId), validIssuers: config.validIssuers, maxLifetimeMs: config.maxTokenLifetimeMs, clock };
  const refusals = new RefusalLog(log, config.refusalLogIntervalMs);
  const health = new IdentityProviderHealth(log);
  const onFailure = deps.onFailure ?? (() => undefined);

  async function verify(token: string, digest: string): Promise<Principal> {
    const signing = await metadata.load();
    health.loaded();
    const { claims, expiresAtMs } = await verifyToken(token, signing, policy);
    const principal = principalFromClaims(claims);
    if (principal === null) throw new AuthFailure('token carries no usable identity claim (oid, objectidentifier, nameidentifier, sub, name)', 'no_identity');
    // An owner id keys everything the caller owns: one the storage cannot keep (a NUL byte, an unpaired
    // surrogate, too long) would fail every lookup, or on PostgreSQL meet another owner's (U+FFFD).
    if (!isStorableKey(principal.ownerId) || (principal.subjectId !== null && !isStorableKey(principal.subjectId))) {
      throw new AuthFailure('token identity claim cannot be stored (NUL, unpaired surrogate or over 512 bytes)', 'invalid_claims');
    }
    cache.set(digest, principal, expiresAtMs);
    return principal;
  }

  return {
    async authenticate(authorization) {
      if (authorization === undefined) {
        log.debug?.({ reason: 'no authorization header' }, 'bearer authentication failed');
        onFailure('missing');
        throw unauthorizedProblem();
      }
      let digest: string | undefined;
      try {
        const token = parseBearerToken(authorization);
        digest = tokenDigest(token);
        return cache.get(digest) ?? (await verify(token, digest));
      } catch (error) {
        const category = failureCategory(error);
        onFailure(category);
        if (error instanceof IdentityProviderUnreachable) {
          health.failed(error.message);
          throw identityProviderUnavailableProblem();
        }
        // The token itself is never logged: a digest prefix is enough to correlate. Counted per reason.
        refusals.record(failureReason(error), digest === undefined ? null : `sha256:${digest.slice(0, 12)}`, category);
        throw unauthorizedProblem(digest !== undefined);
      }
    },
    remembered(authorization) {
      if (authorization === undefined || authorization.length > MAX_AUTHORIZATION_LENGTH) return undefined;
      // The usual header, 'Bearer <token>', needs no pattern: only a token verified before (so of
      // token68 syntax, parsed from a header the pattern accepted) has a cached digest, and
      // 'Bearer ' + such a token is exactly what the pattern accepts. Any other text misses.
      const token = authorization.startsWith('Bearer ') ? authorization.slice(7) : bearerTokenOf(authorization);
      return token === undefined ? undefined : cache.get(tokenDigest(token));
    },
    async ready() {
      try {
        await metadata.load();
        health.loaded();
        return true;
      } catch (error) {
        health.failed(failureReason(error));
        return false;
      }
    },
    close() {
      refusals.close();
      metadata.close();
      cache.clear();
    },
  };
}

/** jose's error codes by category; anything else from jose is `other`. */
const JOSE_CATEGORIES: Readonly<Record<string, AuthFailureCategory>> = {
  ERR_JWT_EXPIRED: 'expired',
  ERR_JWT_CLAIM_VALIDATION_FAILED: 'invalid_claims',
  ERR_JWS_SIGNATURE_VERIFICATION_FAILED: 'invalid_signature',
  ERR_JOSE_ALG_NOT_ALLOWED: 'algorithm',
  ERR_JOSE_NOT_SUPPORTED: 'algorithm',
  ERR_JWS_INVALID: 'malformed',
  ERR_JWT_INVALID: 'malformed',
  ERR_JWKS_NO_MATCHING_KEY: 'unknown_key',
  ERR_JWKS_MULTIPLE_MATCHING_KEYS: 'unknown_key',
};

export function failureCategory(error: unknown): AuthFailureCategory {
  if (error instanceof AuthFailure) return error.category;
  if (error instanceof errors.JOSEError) return JOSE_CATEGORIES[error.code] ?? 'other';
  return 'other';
}

function failureReason(error: unknown): string {
  if (error instanceof AuthFailure) return error.message;
  // jose messages name the failed check, never the token or its claim values.
  if (error instanceof errors.JOSEError) return `${error.code}: ${error.message}`;
  return `unexpected ${error instanceof Error ? error.name : typeof error}`;
}
