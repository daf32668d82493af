// Anonymous (development) mode: every request is the one synthetic principal, and any
// Authorization header is ignored rather than validated. `AnonymousRoles` gives that principal roles
// (role gates such as direct invocation and evals); its envelope stays the Default one regardless.
import type { Authenticator } from './authenticator.js';
import { ANONYMOUS_PRINCIPAL, type Principal } from './principal.js';

export function createAnonymousAuthenticator(roles: readonly string[] = []): Authenticator {
  const principal: Principal =
    roles.length === 0 ? ANONYMOUS_PRINCIPAL : Object.freeze({ ...ANONYMOUS_PRINCIPAL, roles: Object.freeze([...new Set(roles)]) });
  return {
    authenticate: () => Promise.resolve(principal),
    remembered: () => principal,
    ready: () => Promise.resolve(true),
    close: () => undefined,
  };
}
