// The public document the console reads at start (`/console/config.json`): how to sign in, nothing
// else. Built from AppConfig:AI:BundleExecution:Auth and AppConfig:Console; it never carries a secret
// (there is none to carry: the console is a public client using authorization code + PKCE).
import type { AppConfig } from '../platform/config/types.js';

export type ConsoleAuth =
  | { readonly mode: 'anonymous' }
  | { readonly mode: 'oidc'; readonly authority: string; readonly clientId: string; readonly scope: string };

export interface ConsoleConfig {
  readonly auth: ConsoleAuth;
}

export function consoleConfig(config: Pick<AppConfig, 'bundleExecution' | 'console'>): ConsoleConfig {
  const auth = config.bundleExecution.auth;
  if (auth.allowAnonymous || auth.tenantId === null || auth.clientId === null) return { auth: { mode: 'anonymous' } };
  return {
    auth: {
      mode: 'oidc',
      // DESIGN §2: the authority is {Instance}{TenantId}/v2.0 (Instance always ends with '/').
      authority: `${auth.instance}${auth.tenantId}/v2.0`,
      clientId: config.console.clientId ?? auth.clientId,
      scope: config.console.scope ?? `openid profile api://${auth.clientId}/.default`,
    },
  };
}

/** The origin the browser must be allowed to reach for sign-in (discovery, JWKS, token), or null. */
export function authorityOrigin(auth: ConsoleAuth): string | null {
  return auth.mode === 'oidc' ? new URL(auth.authority).origin : null;
}
