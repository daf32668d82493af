// Anonymous (development) mode: every request is the one synthetic principal, and any
// Authorization header is ignored rather than validated.
import type { Authenticator } from './authenticator.js';
import { ANONYMOUS_PRINCIPAL } from './principal.js';

export function createAnonymousAuthenticator(): Authenticator {
  return {
    authenticate: () => Promise.resolve(ANONYMOUS_PRINCIPAL),
    ready: () => Promise.resolve(true),
    close: () => undefined,
  };
}
