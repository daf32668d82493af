// JWT bearer mode: header → token cache → verification → Principal. Every failure is the same 401;
// the reason goes to the log with a token fingerprint, never the token.
import { errors } from 'jose';
import type { AuthConfig } from '../config/types.js';
import { AuthFailure, unauthorizedProblem } from './auth-failure.js';
import type { Authenticator, AuthenticatorDeps } from './authenticator.js';
import { parseBearerToken } from './bearer-token.js';
import { authorityFor, IdentityMetadata } from './identity-metadata.js';
import type { Principal } from './principal.js';
import { principalFromClaims } from './principal-from-claims.js';
import { RefusalLog } from './refusal-log.js';
import { TokenCache } from './token-cache.js';
import { tokenDigest } from './token-digest.js';
import { audiencesFor, verifyToken, type TokenPolicy } from './token-verifier.js';

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
  const policy: TokenPolicy = { audiences: audiencesFor(config.clientId), validIssuers: config.validIssuers, clock };
  const refusals = new RefusalLog(log, config.refusalLogIntervalMs);

  async function verify(token: string, digest: string): Promise<Principal> {
    const signing = await metadata.load();
    const { claims, expiresAtMs } = await verifyToken(token, signing, policy);
    const principal = principalFromClaims(claims);
    if (principal === null) throw new AuthFailure('token carries no usable identity claim (oid, objectidentifier, nameidentifier, sub, name)');
    cache.set(digest, principal, expiresAtMs);
    return principal;
  }

  return {
    async authenticate(authorization) {
      if (authorization === undefined) {
        log.debug?.({ reason: 'no authorization header' }, 'bearer authentication failed');
        throw unauthorizedProblem();
      }
      let digest: string | undefined;
      try {
        const token = parseBearerToken(authorization);
        digest = tokenDigest(token);
        return cache.get(digest) ?? (await verify(token, digest));
      } catch (error) {
        // The token itself is never logged: a digest prefix is enough to correlate. Counted per reason.
        refusals.record(failureReason(error), digest === undefined ? null : `sha256:${digest.slice(0, 12)}`);
        throw unauthorizedProblem(digest !== undefined);
      }
    },
    async ready() {
      try {
        await metadata.load();
        return true;
      } catch (error) {
        log.debug?.({ reason: failureReason(error) }, 'identity metadata not loadable');
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

function failureReason(error: unknown): string {
  if (error instanceof AuthFailure) return error.message;
  // jose messages name the failed check, never the token or its claim values.
  if (error instanceof errors.JOSEError) return `${error.code}: ${error.message}`;
  return `unexpected ${error instanceof Error ? error.name : typeof error}`;
}
