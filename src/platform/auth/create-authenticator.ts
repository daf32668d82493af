// Chooses the authenticator AuthConfig asks for: anonymous mode or JWT bearer validation. Refuses a
// configuration that start-up validation should already have refused, rather than guessing.
import type { AuthConfig } from '../config/types.js';
import { createAnonymousAuthenticator } from './anonymous-authenticator.js';
import type { Authenticator, AuthenticatorDeps } from './authenticator.js';
import { createJwtAuthenticator } from './jwt-authenticator.js';

export function createAuthenticator(config: AuthConfig, deps: AuthenticatorDeps): Authenticator {
  const hasScheme = config.tenantId !== null || config.clientId !== null;
  if (config.allowAnonymous) {
    if (hasScheme) throw new Error('Auth: AllowAnonymous cannot be combined with TenantId/ClientId');
    return createAnonymousAuthenticator(config.anonymousRoles);
  }
  if (config.tenantId === null || config.tenantId === '' || config.clientId === null || config.clientId === '') {
    throw new Error('Auth: both TenantId and ClientId are required unless AllowAnonymous is true');
  }
  return createJwtAuthenticator({ ...config, tenantId: config.tenantId, clientId: config.clientId }, deps);
}
