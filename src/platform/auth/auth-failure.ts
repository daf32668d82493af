// The internal reason a request failed authentication, and the one uniform 401 every reason becomes.
// The reason is for the log only; callers never learn which check failed.
import { ProblemError } from '../problems/index.js';

export const UNAUTHORIZED_DETAIL = 'A valid bearer token is required.';

/** Thrown inside the auth module; never leaves it (the authenticator maps it to the uniform 401). */
export class AuthFailure extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'AuthFailure';
  }
}

/**
 * The same problem for every failure: same detail, no cause attached. RFC 6750 §3: a request that
 * carried no bearer token gets a bare `Bearer` challenge; one whose token was refused, for whatever
 * reason (expired, bad signature, wrong audience…), gets `error="invalid_token"`, the same for all.
 */
export function unauthorizedProblem(tokenPresented = false): ProblemError {
  return new ProblemError('unauthorized', UNAUTHORIZED_DETAIL, { headers: { 'www-authenticate': tokenPresented ? INVALID_TOKEN_CHALLENGE : 'Bearer' } });
}

export const INVALID_TOKEN_CHALLENGE = 'Bearer error="invalid_token"';
