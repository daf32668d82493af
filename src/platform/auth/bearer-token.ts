// Parses an Authorization header value into one bearer token (RFC 6750 §2.1): case-insensitive
// scheme, exactly one token68 credential. Says nothing about whether the token is valid.
import { AuthFailure } from './auth-failure.js';

/** Far above any real access token; keeps hashing and parsing of hostile headers bounded. */
export const MAX_AUTHORIZATION_LENGTH = 16_384;

const bearerPattern = /^[ \t]*bearer[ \t]+([A-Za-z0-9\-._~+/]+=*)[ \t]*$/i;

export function parseBearerToken(authorization: string | undefined): string {
  if (authorization === undefined || authorization.trim() === '') throw new AuthFailure('no authorization header', 'missing');
  if (authorization.length > MAX_AUTHORIZATION_LENGTH) throw new AuthFailure('authorization header too long', 'malformed');
  const token = bearerTokenOf(authorization);
  if (token === undefined) throw new AuthFailure('authorization header is not exactly one bearer token', 'malformed');
  return token;
}

/** The one bearer token of a header of bounded length, or undefined; never throws (the fast lane's parse). */
export function bearerTokenOf(authorization: string): string | undefined {
  return authorization.length > MAX_AUTHORIZATION_LENGTH ? undefined : bearerPattern.exec(authorization)?.[1];
}
