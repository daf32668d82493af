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

/** The same problem for every failure: same detail, same `WWW-Authenticate`, no cause attached. */
export function unauthorizedProblem(): ProblemError {
  return new ProblemError('unauthorized', UNAUTHORIZED_DETAIL, { headers: { 'www-authenticate': 'Bearer' } });
}
