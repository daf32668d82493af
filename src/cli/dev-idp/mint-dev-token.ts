// Signs a dev token: defaults (iss, aud `api://{clientId}`, iat, nbf, exp) under the caller's claims.
// A claim given as undefined is left out, so tests can drop `exp` or `iss` on purpose.
import { importJWK, SignJWT } from '../../platform/vendor/jose.js';
import type { JWK, JWTHeaderParameters, JWTPayload } from 'jose';
import { DEV_IDP_ALGORITHM } from './signing-key.js';

export const DEFAULT_TOKEN_TTL_SECONDS = 3600;

export interface DevTokenSigner {
  readonly issuer: string;
  readonly clientId: string;
  readonly signingKey: JWK;
}

export interface MintTokenOptions {
  readonly ttlSeconds?: number;
  /** Overrides the `kid` header (the token is still signed with the current key). */
  readonly kid?: string;
  /** Extra protected-header members, applied last. */
  readonly header?: Record<string, unknown>;
}

export async function mintDevToken(
  signer: DevTokenSigner,
  claims: Record<string, unknown>,
  options: MintTokenOptions,
  nowMs: number,
): Promise<string> {
  const now = Math.floor(nowMs / 1000);
  const merged: Record<string, unknown> = {
    iss: signer.issuer,
    aud: `api://${signer.clientId}`,
    iat: now,
    nbf: now,
    exp: now + (options.ttlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS),
    ...claims,
  };
  const payload = Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== undefined)) as JWTPayload;
  const header = { alg: DEV_IDP_ALGORITHM, typ: 'JWT', kid: options.kid ?? signer.signingKey.kid, ...options.header } as JWTHeaderParameters;
  const key = await importJWK(signer.signingKey, DEV_IDP_ALGORITHM);
  return new SignJWT(payload).setProtectedHeader(header).sign(key);
}
