// The Authenticator contract: what the HTTP edge calls to turn an Authorization header into a
// Principal, and what the factory needs injected. No implementation here.
import type { Clock } from '../clock/index.js';
import type { AuthFailureCategory } from './auth-failure.js';
import type { Principal } from './principal.js';

export interface Authenticator {
  /**
   * The caller's principal; throws the uniform `unauthorized` ProblemError on every refusal, and an
   * `unavailable` (503) one when the identity provider cannot be reached to check the token.
   */
  authenticate(authorization: string | undefined): Promise<Principal>;
  /**
   * The principal of a token this authenticator has already verified and that has not expired,
   * answered at once; undefined when it cannot say so without work (unknown, expired, malformed or
   * missing: `authenticate` then decides, and refuses). The request path's fast lane: no promise.
   */
  remembered(authorization: string | undefined): Principal | undefined;
  /** Whether identity metadata (discovery and JWKS) is loadable; always true in anonymous mode. */
  ready(): Promise<boolean>;
  close(): void;
}

export interface AuthLog {
  warn(obj: object, msg: string): void;
  info?(obj: object, msg: string): void;
  debug?(obj: object, msg: string): void;
}

export interface AuthenticatorDeps {
  readonly clock: Clock;
  readonly log: AuthLog;
  readonly fetch?: typeof fetch;
  /** Verified tokens remembered until their `exp`; default 10,000. */
  readonly tokenCacheSize?: number;
  /** Told of every request that was not authenticated, by category (the auth-failure metric). */
  readonly onFailure?: (category: AuthFailureCategory) => void;
}
