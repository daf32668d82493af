// The dev IdP's RS256 signing keys: generation (kid = RFC 7638 thumbprint) and the public half
// published in the JWKS. Private material never leaves the state file and this process.
import { calculateJwkThumbprint, exportJWK, generateKeyPair } from '../../platform/vendor/jose.js';
import type { JWK } from 'jose';

export const DEV_IDP_ALGORITHM = 'RS256';

export async function generateSigningKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair(DEV_IDP_ALGORITHM, { extractable: true, modulusLength: 2048 });
  const jwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint(publicJwk(jwk));
  return { ...jwk, kid, alg: DEV_IDP_ALGORITHM, use: 'sig' };
}

/** Only the public members of an RSA JWK, plus kid/alg/use. */
export function publicJwk(jwk: JWK): JWK {
  const { kty, n, e, kid, alg, use } = jwk;
  return Object.fromEntries(Object.entries({ kty, n, e, kid, alg, use }).filter(([, value]) => value !== undefined));
}
