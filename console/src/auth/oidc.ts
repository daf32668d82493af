// OpenID Connect sign-in (authorization code + PKCE) with oidc-client-ts, loaded only when the
// service has an identity provider. The code comes back in the URL fragment, so it never reaches the
// service's request log; the tokens live in sessionStorage (this tab only) and are dropped on sign-out.
import { UserManager, WebStorageStateStore } from 'oidc-client-ts';
import type { ConsoleAuth } from './console-config';

type OidcAuth = Extract<ConsoleAuth, { mode: 'oidc' }>;

export interface OidcSignIn {
  /** The access token of a signed-in, unexpired user, or null. */
  current(): Promise<string | null>;
  /** Completes a sign-in redirect; resolves to the access token and the page to return to. */
  complete(): Promise<{ token: string; returnTo: string }>;
  begin(returnTo: string): Promise<void>;
  signOut(): Promise<void>;
}

export function redirectUri(): string {
  return `${window.location.origin}/console/`;
}

/** True when the page was opened as the identity provider's answer (`#code=…&state=…` or `#error=…`). */
export function isSignInCallback(hash: string): boolean {
  if (hash.startsWith('#/') || hash === '') return false;
  const params = new URLSearchParams(hash.slice(1));
  return params.has('state') && (params.has('code') || params.has('error'));
}

export function createOidcSignIn(auth: OidcAuth): OidcSignIn {
  const store = new WebStorageStateStore({ store: window.sessionStorage });
  const manager = new UserManager({
    authority: auth.authority,
    client_id: auth.clientId,
    redirect_uri: redirectUri(),
    response_type: 'code',
    response_mode: 'fragment',
    scope: auth.scope,
    userStore: store,
    stateStore: store,
    loadUserInfo: false,
    automaticSilentRenew: false,
    monitorSession: false,
  });
  return {
    async current() {
      const user = await manager.getUser();
      return user !== null && !user.expired ? user.access_token : null;
    },
    async complete() {
      const user = await manager.signinRedirectCallback();
      const state = user.state as { returnTo?: unknown } | undefined;
      const returnTo = typeof state?.returnTo === 'string' && state.returnTo.startsWith('#/') ? state.returnTo : '#/approvals';
      return { token: user.access_token, returnTo };
    },
    begin: (returnTo) => manager.signinRedirect({ state: { returnTo } }),
    signOut: () => manager.removeUser(),
  };
}
