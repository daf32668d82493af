// The internal reason a request failed authentication, and the one uniform 401 every reason becomes.
// The reason is for the log only; callers never learn which check failed.
import { ProblemError } from '../problems/index.js';

export const UNAUTHORIZED_DETAIL = 'A valid bearer token is required.';

/**
 * Why a request was not authenticated, as a bounded category: the `reason` label of the
 * auth-failure metric and the `category` of the audit line (the free-text reason stays in the log).
 */
export type AuthFailureCategory =
  | 'missing'
  | 'malformed'
  | 'algorithm'
  | 'invalid_signature'
  | 'unknown_key'
  | 'expired'
  | 'invalid_claims'
  | 'no_identity'
  | 'identity_provider_unavailable'
  | 'other';

/** Thrown inside the auth module; never leaves it (the authenticator maps it to the uniform 401). */
export class AuthFailure extends Error {
  readonly category: AuthFailureCategory;
  constructor(reason: string, category: AuthFailureCategory = 'other') {
    super(reason);
    this.name = 'AuthFailure';
    this.category = category;
  }
}

/**
 * The identity provider's metadata (discovery, keys) could not be loaded: no token can be checked,
 * whoever sent it. The authenticator answers 503, not 401 (issue 12: honest health).
 */
export class IdentityProviderUnreachable extends AuthFailure {
  constructor(reason: string) {
    super(reason, 'identity_provider_unavailable');
    this.name = 'IdentityProviderUnreachable';
  }
}

export const IDENTITY_PROVIDER_UNREACHABLE_DETAIL = 'The identity provider cannot be reached, so no bearer token can be checked; retry later.';
/** Seconds: the identity metadata is retried this often after a failure (FAILED_LOAD_RETRY_MS). */
export const IDENTITY_PROVIDER_RETRY_AFTER_SECONDS = 5;

export function identityProviderUnavailableProblem(): ProblemError {
  return new ProblemError('unavailable', IDENTITY_PROVIDER_UNREACHABLE_DETAIL, { headers: { 'retry-after': String(IDENTITY_PROVIDER_RETRY_AFTER_SECONDS) } });
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
