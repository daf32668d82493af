// Public surface of bearer authentication: Authenticator factory, Principal, the uniform 401 detail
// and the direct-invocation identifier rule.
export { createAuthenticator } from './create-authenticator.js';
export type { Authenticator, AuthenticatorDeps, AuthLog } from './authenticator.js';
export { ANONYMOUS_PRINCIPAL, type Principal } from './principal.js';
export { UNAUTHORIZED_DETAIL, IDENTITY_PROVIDER_UNREACHABLE_DETAIL, type AuthFailureCategory } from './auth-failure.js';
export { isInvocationIdentifier, MAX_INVOCATION_IDENTIFIER_LENGTH } from './invocation-identifier.js';
export { DEFAULT_TOKEN_CACHE_SIZE } from './token-cache.js';
export { ACCEPTED_ALGORITHMS } from './token-verifier.js';
export { authorityFor } from './identity-metadata.js';
