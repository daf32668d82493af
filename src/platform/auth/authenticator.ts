// The Authenticator contract: what the HTTP edge calls to turn an Authorization header into a
// Principal, and what the factory needs injected. No implementation here.
import type { Clock } from '../clock/index.js';
import type { Principal } from './principal.js';

export interface Authenticator {
  /** The caller's principal; throws the uniform `unauthorized` ProblemError on every failure. */
  authenticate(authorization: string | undefined): Promise<Principal>;
  /** Whether identity metadata (discovery and JWKS) is loadable; always true in anonymous mode. */
  ready(): Promise<boolean>;
  close(): void;
}

export interface AuthLog {
  warn(obj: object, msg: string): void;
  debug?(obj: object, msg: string): void;
}

export interface AuthenticatorDeps {
  readonly clock: Clock;
  readonly log: AuthLog;
  readonly fetch?: typeof fetch;
  /** Verified tokens remembered until their `exp`; default 10,000. */
  readonly tokenCacheSize?: number;
}
