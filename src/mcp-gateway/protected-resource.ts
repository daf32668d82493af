// The gateway's RFC 9728 protected-resource metadata: the resource is `<origin>/mcp` as the client
// reached it, and its authorization server the identity provider's authority `{Instance}{TenantId}/v2.0`
// (DESIGN.md §15), whose OpenID discovery document an OAuth client reads next. The scope asks that
// provider for a token for this API (audience api://{ClientId}, the audience bearer validation accepts).
// Anonymous mode has no provider: the document then names none.
import { authorityFor } from '../platform/auth/index.js';
import type { AuthConfig } from '../platform/config/types.js';
import type { ProtectedResourceMetadata } from './schemas.js';

export const MCP_PATH = '/mcp';
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';

export function protectedResourceMetadata(origin: string, auth: AuthConfig): ProtectedResourceMetadata {
  const provider =
    auth.tenantId === null || auth.clientId === null
      ? {}
      : { authorization_servers: [authorityFor(auth.instance, auth.tenantId)], scopes_supported: [`api://${auth.clientId}/.default`] };
  return { resource: `${origin}${MCP_PATH}`, ...provider, bearer_methods_supported: ['header'], resource_name: 'Portcullis MCP gateway' };
}
